"""Live streams over the wire: gunicorn with gevent workers (as `keltis serve` runs it), where
a held stream holds a greenlet, not a thread."""

from __future__ import annotations

import json
import time

import pytest
import requests

from devtools.reliability.web import WebServer
from tests.api.helpers import accounts_game_over_http
from tests.support.ports import free_port  # this worker's own range


@pytest.fixture(scope="module")
def server(redis_url):
    env = {"REDIS_URL": redis_url, "KELTIS_STREAM_KEEPALIVE_S": "20"}
    with WebServer(env, workers=1, port=free_port()) as web:
        yield web


def sign_up(base: str, name: str) -> dict:
    answer = requests.post(f"{base}/v1/accounts", json={"name": name, "bot": True})
    assert answer.status_code == 201
    return answer.json()


def test_your_turn_reaches_a_held_stream_after_the_opponents_move(server):
    base, suffix = server.url, str(time.time_ns())[-9:]
    first, second = sign_up(base, f"s0_{suffix}"), sign_up(base, f"s1_{suffix}")
    created = accounts_game_over_http(base, "keltis-card", first, second)
    mover = (first, second)[created["to_move"]]
    waiter = (first, second)[1 - created["to_move"]]
    stream = requests.get(
        f"{base}/v1/me/events",
        headers={"Authorization": f"Bearer {waiter['key']}"},
        stream=True,
        timeout=10,
    )
    assert stream.status_code == 200
    assert stream.headers["Content-Type"].startswith("application/x-ndjson")
    lines = stream.iter_lines()
    assert next(lines) == b""  # nothing waits on it yet: a keep-alive comes first
    auth = {"Authorization": f"Bearer {mover['key']}"}
    game = f"{base}/v1/games/{created['id']}"
    to_move = created["to_move"]
    while to_move == created["to_move"]:
        move = requests.get(f"{game}/moves", headers=auth).json()["moves"][0]
        answer = requests.post(f"{game}/moves", json=move, headers=auth).json()
        to_move = answer["to_move"]
    acknowledged = time.monotonic()
    line = next(line for line in lines if line)
    assert time.monotonic() - acknowledged < 10.0  # woken, not by the 20 s keep-alive
    assert json.loads(line) == {
        "type": "your_turn",
        "game": created["id"],
        "version": answer["version"],
        "deadline": None,
    }
    stream.close()
