"""The rated pool on the real stack (gunicorn, a worker with its pairing thread, a Redis of
these tests' own): seekers listening on GET /v1/me/events are paired and hear
`game_started`; a seek ends when its stream goes; a player who leaves mid-game leaves the
game to its clock; a lone seeker gets a pool bot."""

from __future__ import annotations

import json
import queue
import threading
import time
import uuid

import pytest
import requests

from tests.workers.processes import served, wait_for

pytestmark = pytest.mark.redis

POOL_ENV = {
    "KELTIS_SEEK_GRACE_S": "1",
    "KELTIS_POOL_BOTS": "greedy",
    "KELTIS_POOL_BOT_WAIT_S": "4",
    "KELTIS_PAIR_EVERY_S": "0.2",
    "KELTIS_SEEK_SHARED_NETWORKS": "127.0.0.0/8",  # every client here is this machine
    "KELTIS_STREAM_KEEPALIVE_S": "0.5",  # a closed stream is noticed at its next line
}


@pytest.fixture(scope="module")
def stack(private_redis_server):
    with served(private_redis_server.url, POOL_ENV) as stack:
        yield stack


class Events:
    """An account's GET /v1/me/events, its lines read into a queue by a thread."""

    def __init__(self, base: str, key: str):
        self.response = requests.get(
            f"{base}/v1/me/events",
            headers={"Authorization": f"Bearer {key}"},
            stream=True,
            timeout=30,
        )
        assert self.response.status_code == 200
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for line in self.response.iter_lines():
                if line:
                    self.lines.put(json.loads(line))
        except (requests.RequestException, AttributeError, ValueError):
            pass

    def next(self, kind: str, timeout_s: float = 10.0) -> dict:
        deadline = time.monotonic() + timeout_s
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(f"no {kind} line in time")
            try:
                line = self.lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if line["type"] == kind:
                return line

    def close(self) -> None:
        self.response.close()


def _account(base: str) -> dict:
    name = "lv" + uuid.uuid4().hex[:10]
    made = requests.post(f"{base}/v1/accounts", json={"name": name, "bot": True})
    assert made.status_code == 201
    return made.json()


def _auth(made: dict) -> dict:
    return {"Authorization": f"Bearer {made['key']}"}


def _seek(base: str, made: dict, **body) -> dict:
    answer = requests.post(
        f"{base}/v1/seeks", json={"game": "keltis-card", **body}, headers=_auth(made)
    )
    assert answer.status_code == 201, answer.text
    return answer.json()


def test_two_listening_seekers_both_hear_game_started_for_one_game(stack):
    base = stack.base_url
    ann, bea = _account(base), _account(base)
    streams = [Events(base, ann["key"]), Events(base, bea["key"])]
    try:
        _seek(base, ann)
        _seek(base, bea)
        started = [s.next("game_started") for s in streams]
        assert started[0]["game"] == started[1]["game"]
        game = requests.get(f"{base}/v1/games/{started[0]['game']}").json()
        assert game["rated"] is True
        assert sorted(p["name"] for p in game["players"]) == sorted([ann["name"], bea["name"]])
        mine = requests.get(f"{base}/v1/seeks", headers=_auth(ann)).json()["seeks"]
        assert mine[0]["games"] == [started[0]["game"]]
    finally:
        for stream in streams:
            stream.close()


def test_a_seek_ends_once_its_stream_is_gone_and_when_deleted(stack):
    base = stack.base_url
    ann = _account(base)
    stream = Events(base, ann["key"])
    first = _seek(base, ann)
    second = _seek(base, ann)
    deleted = requests.delete(f"{base}/v1/seeks/{second['id']}", headers=_auth(ann))
    assert deleted.status_code == 200
    stream.close()
    wait_for(lambda: requests.get(f"{base}/v1/seeks", headers=_auth(ann)).json()["seeks"] == [], 30)
    assert requests.delete(f"{base}/v1/seeks/{first['id']}", headers=_auth(ann)).status_code == 404


def test_leaving_mid_game_ends_the_seek_and_the_game_goes_on_by_its_clock(stack):
    base = stack.base_url
    ann, bea = _account(base), _account(base)
    clock = {"move_seconds": 1, "fallback": "greedy", "max_timeouts": 100}
    streams = [Events(base, ann["key"]), Events(base, bea["key"])]
    _seek(base, ann, clock=clock)
    _seek(base, bea, clock=clock)
    game_id = streams[0].next("game_started")["game"]
    for stream in streams:
        stream.close()  # both leave: nobody moves
    wait_for(lambda: requests.get(f"{base}/v1/seeks", headers=_auth(ann)).json()["seeks"] == [], 30)
    version = requests.get(f"{base}/v1/games/{game_id}").json()["version"]
    later = wait_for(  # 3 s of timeouts, and room for a loaded machine's worker
        lambda: requests.get(f"{base}/v1/games/{game_id}").json()["version"] > version + 2, 30
    )
    assert later  # the clock times the turns out and the fallback bot moves


def test_a_lone_seeker_gets_a_pool_bot_after_the_wait(stack):
    base = stack.base_url
    ann = _account(base)
    stream = Events(base, ann["key"])
    try:
        opened = time.monotonic()
        _seek(base, ann)
        game_id = stream.next("game_started", timeout_s=15)["game"]
        assert time.monotonic() - opened >= 3.5  # KELTIS_POOL_BOT_WAIT_S is 4
        game = requests.get(f"{base}/v1/games/{game_id}").json()
        assert sorted(p.get("bot") or "" for p in game["players"]) == ["", "greedy"]
        assert game["rated"] is True
    finally:
        stream.close()
