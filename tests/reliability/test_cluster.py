"""Scale beyond one machine: the API, stateless behind two gunicorn processes, on a 3-master
Redis Cluster (each game on one slot), bot turns through RQ on a separate standalone Redis."""

from __future__ import annotations

import json
import queue
import threading
import time
import uuid

import pytest
import requests

from api import create_app
from devtools.picks import rotating_pick
from devtools.redis_servers import RedisServer
from devtools.reliability.fault_proof import sigkill, start_worker
from devtools.reliability.logcheck import check_log, verify_finished, view_of_fold
from devtools.reliability.web import WebServer
from store import keys
from store.core.connection import ClusterNeedsQueueRedis
from tests.api.contract import contract_session
from tests.api.helpers import accounts_game_over_http
from tests.support.ports import free_port  # this worker's own range
from tests.workers.processes import wait_for

CARD = "keltis-card"


@pytest.fixture(scope="module")
def queue_redis():
    with RedisServer() as server:
        yield server


@pytest.fixture(scope="module")
def cluster_url(redis_cluster) -> str:
    return redis_cluster.url.replace("redis://", "redis+cluster://")


@pytest.fixture(scope="module")
def web(cluster_url, queue_redis):
    env = {"REDIS_URL": cluster_url, "RQ_REDIS_URL": queue_redis.url}
    with WebServer(env, workers=2, port=free_port()) as server:
        yield server


@pytest.fixture
def http():
    """A contract-checking client that opens a new connection per request, so requests
    spread over both gunicorn processes."""
    with contract_session({"Connection": "close"}) as session:
        yield session


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def create(http, base: str, players: list[dict]) -> dict:
    created = http.post(f"{base}/v1/games", json={"game": CARD, "players": players})
    assert created.status_code == 201, created.text
    return created.json()


def play_one_move(http, base: str, game_id: str, token: str, pick: int) -> dict:
    legal = http.get(f"{base}/v1/games/{game_id}/moves", headers=bearer(token)).json()
    move = rotating_pick(legal["moves"], pick)
    posted = http.post(
        f"{base}/v1/games/{game_id}/moves",
        json={**move, "expected_version": legal["version"]},
        headers={**bearer(token), "Idempotency-Key": f"move-{legal['version']}"},
    )
    assert posted.status_code == 200, posted.text
    return posted.json()


def test_a_whole_game_with_errors_and_events_over_http_on_a_redis_cluster(web, http, redis_cluster):
    base = web.url
    game = create(http, base, [{"name": "ann"}, {"name": "bea"}])
    game_id, tokens = game["id"], {s["seat"]: s["token"] for s in game["seats"]}
    other = create(http, base, [{"name": "cid"}, {"name": "dan"}])

    # errors, each in the error shape and the contract (the session hook checks it)
    assert http.get(f"{base}/v1/games/no-such-game-0000000").status_code == 404
    spectator_move = http.post(f"{base}/v1/games/{game_id}/moves", json={"action": "stop"})
    assert spectator_move.status_code == 401
    foreign = http.get(f"{base}/v1/games/{game_id}", headers=bearer(other["seats"][0]["token"]))
    assert foreign.status_code == 403
    illegal = http.post(
        f"{base}/v1/games/{game_id}/moves",
        json={"action": "discard", "card": "blue-99"},
        headers=bearer(tokens[0]),
    )
    assert illegal.status_code == 422

    # play to the end; a retried request (same Idempotency-Key) and a stale version on the way
    legal = http.get(f"{base}/v1/games/{game_id}/moves", headers=bearer(tokens[0])).json()
    request = {
        "url": f"{base}/v1/games/{game_id}/moves",
        "json": {**legal["moves"][0], "expected_version": legal["version"]},
        "headers": {**bearer(tokens[0]), "Idempotency-Key": "first-move"},
    }
    first = http.post(**request)
    retried = http.post(**request)
    assert first.status_code == retried.status_code == 200
    assert retried.headers["Idempotent-Replayed"] == "true"
    assert retried.json() == first.json()
    first = first.json()
    stale = http.post(
        f"{base}/v1/games/{game_id}/moves",
        json={"action": "stop", "expected_version": 1},
        headers=bearer(tokens[first["to_move"]]),
    )
    assert stale.status_code == 409
    assert stale.json()["error"]["current_version"] == first["version"]
    moves = 1
    state = http.get(f"{base}/v1/games/{game_id}").json()
    while state["status"] != "finished":
        play_one_move(http, base, game_id, tokens[state["to_move"]], moves)
        moves += 1
        state = http.get(f"{base}/v1/games/{game_id}").json()
        assert moves < 2000

    events = http.get(f"{base}/v1/games/{game_id}/events", params={"after": 0}).json()
    assert [e["version"] for e in events["events"]] == list(range(1, state["version"] + 1))
    cluster = redis_cluster.client()
    checked = check_log(cluster, game_id)
    assert checked.record.finished
    assert state["view"] == view_of_fold(checked, None)
    verify_finished(checked)
    slots = {cluster.keyslot(key(game_id)) for key in (keys.log, keys.idempotency, keys.tokens)}
    assert len(slots) == 1


def test_bot_turns_run_through_rq_on_a_standalone_redis_beside_the_cluster(
    web, http, redis_cluster, cluster_url, queue_redis
):
    worker = start_worker(cluster_url, {"RQ_REDIS_URL": queue_redis.url})
    try:
        game = create(http, web.url, [{"name": "ann"}, {"name": "rob", "bot": "greedy"}])
        game_id, token = game["id"], game["seats"][0]["token"]
        moves, version = 0, game["version"]
        while True:
            state = http.get(f"{web.url}/v1/games/{game_id}").json()
            if state["status"] == "finished":
                break
            if state["to_move"] == 0:
                version = play_one_move(http, web.url, game_id, token, moves)["version"]
                moves += 1
            else:  # long-poll until the bot (on the worker) has moved
                http.get(
                    f"{web.url}/v1/games/{game_id}/events",
                    params={"after": state["version"], "wait": 5},
                )
            assert moves < 2000
    finally:
        sigkill(worker)
    checked = check_log(redis_cluster.client(), game_id)
    assert any(entry.by == 1 for entry in checked.entries if entry.cmd is not None)
    assert checked.record.version >= version
    verify_finished(checked)


def test_a_cluster_store_without_a_queue_redis_is_refused_at_start(cluster_url, monkeypatch):
    monkeypatch.delenv("RQ_REDIS_URL", raising=False)
    with pytest.raises(ClusterNeedsQueueRedis):
        create_app({"REDIS_URL": cluster_url})
    app = create_app({"REDIS_URL": cluster_url, "ENQUEUE_BOTS": False, "TESTING": True})
    assert app.test_client().get("/healthz").status_code == 200


# ----- notifications: sharded pub/sub on Redis >= 7, plain pub/sub on 6.2 ---------------------

# Woken by the notification: a re-check would answer 4.5 s or more after the move (the 5 s
# safety re-check of a long-poll, 10 s of a stream); 1 s was overrun on a loaded machine.
WAKE_S = 3.0


@pytest.fixture(scope="module")
def web7(redis7_cluster, queue_redis):
    """gunicorn (2 processes) on the Redis 7 cluster: sharded pub/sub."""
    url = redis7_cluster.url.replace("redis://", "redis+cluster://")
    with WebServer(
        {"REDIS_URL": url, "RQ_REDIS_URL": queue_redis.url}, workers=2, port=free_port()
    ) as server:
        yield server


def command_calls(server, command: str) -> int:
    stats = server.client().info("commandstats").get(f"cmdstat_{command}")
    return stats["calls"] if stats else 0


def long_poll_after_a_move(http, base: str) -> tuple[str, float, dict]:
    """A long-poll waiting on a game while a move is made: the game id, the seconds from
    the move's answer to the long-poll's, and the long-poll's answer."""
    game = create(http, base, [{"name": "ann"}, {"name": "bea"}])
    game_id, tokens = game["id"], {s["seat"]: s["token"] for s in game["seats"]}
    box: dict = {}

    def poll() -> None:
        box["answer"] = requests.get(
            f"{base}/v1/games/{game_id}/events",
            params={"after": game["version"], "wait": 20},
            timeout=30,
        )
        box["at"] = time.monotonic()

    waiter = threading.Thread(target=poll)
    waiter.start()
    time.sleep(0.5)  # the long-poll listens
    box["listening"] = http.get(f"{base}/v1/games/{game_id}").json()["version"]
    play_one_move(http, base, game_id, tokens[game["to_move"]], 0)
    moved_at = time.monotonic()
    waiter.join(timeout=30)
    answer = box["answer"]
    assert answer.status_code == 200
    assert answer.json()["events"][0]["version"] == game["version"] + 1
    return game_id, box["at"] - moved_at, answer.json()


def test_a_long_poll_wakes_on_spublish_on_a_redis_7_cluster(web7, http, redis7_cluster):
    spublished = {node.port: command_calls(node, "spublish") for node in redis7_cluster.nodes}
    published = {node.port: command_calls(node, "publish") for node in redis7_cluster.nodes}
    game_id, waited_s, _ = long_poll_after_a_move(http, web7.url)
    assert waited_s < WAKE_S
    home = redis7_cluster.node_for_key(keys.game_channel(game_id))
    assert command_calls(home, "spublish") > spublished[home.port]  # the commit's SPUBLISH
    assert {n.port: command_calls(n, "publish") for n in redis7_cluster.nodes} == published


def shard_subscribers(cluster, channel: str) -> dict[int, int]:
    """The sharded subscribers of `channel` on each node of `cluster`, by port."""
    return {
        node.port: node.client().execute_command("PUBSUB", "SHARDNUMSUB", channel)[1]
        for node in cluster.nodes
    }


def test_a_waiter_subscribes_on_the_node_owning_its_game_on_a_redis_7_cluster(
    web7, http, redis7_cluster
):
    game = create(http, web7.url, [{"name": "ann"}, {"name": "bea"}])
    channel = keys.game_channel(game["id"])
    waiter = threading.Thread(
        target=requests.get,
        args=(f"{web7.url}/v1/games/{game['id']}/events",),
        kwargs={"params": {"after": game["version"], "wait": 20}, "timeout": 30},
    )
    waiter.start()

    def subscribed() -> dict[int, int] | None:
        found = shard_subscribers(redis7_cluster, channel)
        return found if any(found.values()) else None

    # Counted once the long-poll has subscribed, however long that takes; then a move
    # answers the long-poll.
    counted = wait_for(subscribed, 15, "the long-poll's subscription")
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    play_one_move(http, web7.url, game["id"], tokens[game["to_move"]], 0)
    waiter.join(timeout=30)
    home = redis7_cluster.node_for_key(channel).port
    assert counted == {port: (1 if port == home else 0) for port in counted}


def test_an_account_stream_wakes_on_spublish_on_a_redis_7_cluster(web7, http, redis7_cluster):
    base = web7.url
    first, second = (
        http.post(f"{base}/v1/accounts", json={"name": f"sh{uuid.uuid4().hex[:12]}", "bot": True})
        for _ in range(2)
    )
    accounts = [first.json(), second.json()]
    game = accounts_game_over_http(base, "keltis-card", accounts[0], accounts[1], http)
    waiter = accounts[1 - game["to_move"]]
    lines: queue.Queue = queue.Queue()

    def read() -> None:
        with requests.get(
            f"{base}/v1/me/events", headers=bearer(waiter["key"]), stream=True, timeout=30
        ) as stream:
            for line in stream.iter_lines(chunk_size=1):
                lines.put((time.monotonic(), json.loads(line) if line else None))
                if line:
                    return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    # Nothing waits on it: the stream answers its headers and a keep-alive at once, after
    # its (empty) catch-up; its subscription is confirmed then, or (on a slow machine) soon.
    assert lines.get(timeout=15)[1] is None
    channel = keys.account_channel(waiter["name"].lower())
    wait_for(lambda: any(shard_subscribers(redis7_cluster, channel).values()), 15, channel)
    mover, version = accounts[game["to_move"]], game["version"]
    for pick in range(20):  # a turn of keltis-card may take several moves of one seat
        answer = play_one_move(http, base, game["id"], mover["key"], pick)
        version = answer["version"]
        if answer["to_move"] != game["to_move"]:
            break
    moved_at = time.monotonic()
    arrived_at, line = lines.get(timeout=15)
    while line is None:  # keep-alives
        arrived_at, line = lines.get(timeout=15)
    assert line == {"type": "your_turn", "game": game["id"], "version": version, "deadline": None}
    assert arrived_at - moved_at < WAKE_S


def test_a_long_poll_wakes_on_plain_publish_on_a_redis_6_cluster(web, http, redis_cluster):
    published = sum(command_calls(node, "publish") for node in redis_cluster.nodes)
    _, waited_s, _ = long_poll_after_a_move(http, web.url)
    assert waited_s < WAKE_S
    assert sum(command_calls(node, "publish") for node in redis_cluster.nodes) > published
