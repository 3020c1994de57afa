"""Fixtures of the reliability proofs: a real gunicorn API over the test Redis."""

from __future__ import annotations

import pytest

from devtools.reliability.web import WebServer
from tests.support.ports import free_port  # this worker's own range


@pytest.fixture(scope="module")
def web(redis_url):
    """gunicorn (2 processes x 8 threads) over the session's Redis; rate limit off."""
    with WebServer({"REDIS_URL": redis_url}, workers=2, port=free_port()) as server:
        yield server
