"""Fixtures of the reliability proofs: a real gunicorn API over the test Redis."""

from __future__ import annotations

import pytest

from devtools.reliability.web import WebServer
from tests.reliability.contract_run import METRICS_TOKEN, OPERATOR_TOKEN
from tests.support.ports import free_port  # this worker's own range


@pytest.fixture(scope="module")
def web(redis_url):
    """gunicorn (2 processes x 8 threads) over the session's Redis; rate limit off."""
    with WebServer({"REDIS_URL": redis_url}, workers=2, port=free_port()) as server:
        yield server


@pytest.fixture(scope="module")
def contract_server(private_redis_server):
    """gunicorn on a server of its own, for a Schemathesis run (the generated bot games,
    `mcts:1000` among them, must not reach the shared one, whose later workers would play
    them)."""
    with private_redis_server.client() as client:
        client.flushall()
    env = {
        "REDIS_URL": private_redis_server.url,
        "KELTIS_MAX_EVENTS_WAIT_S": "0.01",
        "KELTIS_STREAM_MAX_S": "0.2",  # a stream answers whole within the request timeout
        "KELTIS_OPERATOR_TOKEN": OPERATOR_TOKEN,  # arenas are opened and closed with it
        "KELTIS_METRICS_TOKEN": METRICS_TOKEN,  # /metrics answers (401 without the token)
    }
    with WebServer(env, workers=2) as server:
        yield server
