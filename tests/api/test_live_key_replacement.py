"""A replaced key over the wire, on gunicorn with two processes (as `keltis serve` runs it):
every stream and long poll the old key opened, wherever the kernel placed its connection,
ends on POST /v1/me/key, not at its own end; the bar of a second is
measured by `python -m bench key_replacement`."""

from __future__ import annotations

import concurrent.futures
import time

import pytest
import requests

from bench.key_replacement import hold as _hold
from bench.key_replacement import poll as _poll
from devtools.reliability.web import WebServer
from store.live.streams import SlotStore, account_key
from tests.support.ports import free_port  # this worker's own range
from tests.workers.processes import wait_for

HELD = 6  # connections spread over both processes by SO_REUSEPORT
LOADED_MACHINE_S = 10.0  # room for a loaded test machine; bench.key_replacement measures


@pytest.fixture(scope="module")
def server(redis_url):
    # Long polls held for 25 s (past the default cap of 8): they must still be held when
    # the key is replaced on a loaded machine.
    env = {
        "REDIS_URL": redis_url,
        "KELTIS_STREAM_KEEPALIVE_S": "30",
        "KELTIS_MAX_EVENTS_WAIT_S": "30",
    }
    with WebServer(env, workers=2, port=free_port()) as web:
        yield web


def test_every_stream_and_long_poll_of_a_replaced_key_ends_within_a_second(server, redis_client):
    base, suffix = server.url, str(time.time_ns())[-9:]
    account = requests.post(f"{base}/v1/accounts", json={"name": f"kr_{suffix}", "bot": True})
    key = account.json()["key"]
    players = [{"account": f"kr_{suffix}"}, {"name": "bea"}]
    created = requests.post(
        f"{base}/v1/games",
        json={"game": "keltis-card", "players": players},
        headers={"Authorization": f"Bearer {key}"},
    ).json()
    game, version = f"{base}/v1/games/{created['id']}", created["version"]
    auth = {"Authorization": f"Bearer {key}"}
    urls = [f"{game}/stream?after={version}"] * 3 + [f"{base}/v1/me/events"]
    polls = [f"{game}/events?after={version}&wait=25"] * 2
    with concurrent.futures.ThreadPoolExecutor(HELD) as pool:
        opened = [concurrent.futures.Future() for _ in range(len(urls))]
        streams = [pool.submit(_hold, u, auth, o) for u, o in zip(urls, opened, strict=True)]
        waits = [pool.submit(_poll, u, auth) for u in polls]
        for future in opened:
            future.result(timeout=10)
        # Every request is held (the long polls too, which answer nothing until they end):
        # counted by the server in Redis.
        slots = SlotStore(redis_client)
        wait_for(lambda: slots.held(account_key(f"kr_{suffix}")) == HELD, 15, "all held")
        assert not any(f.done() for f in streams + waits)
        replaced = requests.post(f"{base}/v1/me/key", headers=auth)
        assert replaced.status_code == 200
        at = time.monotonic()
        # They end because the key was replaced, not at their own ends (the long polls' 25 s
        # wait, the streams' 30 s keep-alive). The 1 s bar is a benchmark's figure
        # (bench.key_replacement); a loaded test machine gets room here.
        for future in streams:
            status, ended, rest = future.result(timeout=15)
            assert status == 200 and rest == b"" and ended - at < LOADED_MACHINE_S
        for future in waits:
            answer, ended = future.result(timeout=15)
            assert answer.status_code == 401 and ended - at < LOADED_MACHINE_S
            assert answer.json()["error"]["code"] == "unauthenticated"


@pytest.mark.parametrize("kind", ["account", "game"])
def test_a_stream_sends_its_headers_at_once_when_nothing_waits(server, kind):
    """/v1/me/events (and a game stream caught up) answered its headers
    only with the first keep-alive, 10 s later by default (30 s here)."""
    base, suffix = server.url, str(time.time_ns())[-9:]
    account = requests.post(f"{base}/v1/accounts", json={"name": f"hd_{suffix}", "bot": True})
    auth = {"Authorization": f"Bearer {account.json()['key']}"}
    url = f"{base}/v1/me/events"
    if kind == "game":
        players = [{"name": "ann"}, {"name": "bea"}]
        created = requests.post(
            f"{base}/v1/games", json={"game": "keltis-card", "players": players}
        )
        url = f"{base}/v1/games/{created.json()['id']}/stream?after={created.json()['version']}"
        auth = {}  # a spectator's
    started = time.monotonic()
    with requests.get(url, headers=auth, stream=True, timeout=15) as response:
        assert response.status_code == 200
        assert time.monotonic() - started < LOADED_MACHINE_S  # not the 30 s keep-alive
        assert next(response.iter_lines()) == b""  # a keep-alive: nothing waits yet
