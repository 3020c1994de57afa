"""Scale beyond one machine: the API, stateless behind two gunicorn processes, on a 3-master
Redis Cluster (each game on one slot), bot turns through RQ on a separate standalone Redis."""

from __future__ import annotations

import pytest
import requests

from api import create_app
from store import keys
from store.connection import ClusterNeedsQueueRedis
from tests.api.contract import install_requests_hook
from tests.api.helpers import rotating_pick
from tests.reliability.fault_proof import sigkill, start_worker
from tests.reliability.logcheck import check_log, verify_finished, view_of_fold
from tests.reliability.web import WebServer
from tests.support.redis_servers import RedisServer

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
    with WebServer(env, workers=2) as server:
        yield server


@pytest.fixture
def http():
    """A contract-checking client that opens a new connection per request, so requests
    spread over both gunicorn processes."""
    session = requests.Session()
    session.headers["Connection"] = "close"
    install_requests_hook(session)
    yield session
    session.close()


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
