"""The documented grace as a bound, measured on the real stack (gunicorn, a worker pairing
every second, a Redis of these tests' own) with the default settings: a seek ends within
KELTIS_SEEK_GRACE_S (15) of its account's last stream closing, though the stream's
keep-alive (10 s) would notice a hang-up only at a failed write (api.core.hangup)."""

from __future__ import annotations

import socket
import time

import pytest
import requests

from store import keys
from tests.seeks.test_live import _account, _auth, _seek
from tests.workers.processes import served, wait_for

pytestmark = pytest.mark.redis

GRACE_S = 15.0  # KELTIS_SEEK_GRACE_S's default, the bound README and openapi.yaml promise


@pytest.fixture(scope="module")
def stack(private_redis_server):
    with served(private_redis_server.url, {"KELTIS_POOL_BOTS": ""}) as stack:
        yield stack


def _stream(base: str, key: str) -> socket.socket:
    """GET /v1/me/events on a socket of its own, its response's head read."""
    host, port = base.split("//", 1)[1].rsplit(":", 1)
    sock = socket.create_connection((host, int(port)), timeout=10)
    request = f"GET /v1/me/events HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {key}\r\n\r\n"
    sock.sendall(request.encode())
    assert sock.recv(4096).startswith(b"HTTP/1.1 200")
    return sock


def _open_seeks(base: str, made: dict) -> list:
    return requests.get(f"{base}/v1/seeks", headers=_auth(made), timeout=10).json()["seeks"]


def test_a_seek_ends_within_the_grace_of_its_stream_closing(stack, private_redis_server):
    base = stack.base_url
    ann = _account(base)
    stream = _stream(base, ann["key"])
    _seek(base, ann)
    slots = keys.account_streams(ann["name"].lower())
    redis = private_redis_server.client()  # not flushed: the stack runs on it
    wait_for(lambda: redis.zcard(slots) == 1, 10, "the stream's slot")
    closed = time.monotonic()
    stream.close()  # the client hangs up (FIN): a plain socket, closed for certain
    wait_for(lambda: redis.zcard(slots) == 0, 5, "the hang-up noticed")
    noticed = time.monotonic() - closed
    wait_for(lambda: _open_seeks(base, ann) == [], GRACE_S + 10, "the seek's end", every=0.2)
    ended = time.monotonic() - closed
    assert noticed < 2.0  # at once, not at the next keep-alive (10 s)
    assert ended <= GRACE_S, f"the seek outlived its stream by {ended:.1f} s"
    assert ended >= GRACE_S / 2  # a grace still: a stream back soon keeps the seek
