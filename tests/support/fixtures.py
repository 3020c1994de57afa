"""Pytest fixtures of real Redis servers; enable with `pytest_plugins = ["tests.support.fixtures"]`.

- `aof_redis`: a fresh server per test, appendonly yes + appendfsync always (crash tests:
  `aof_redis.kill()` then `aof_redis.start()` replays the AOF on the same port and dir).
- `redis_server_factory`: make servers with any options; all are killed after the test.
- `redis_cluster`: one 3-master cluster for the whole session. Shared: use unique keys, and
  never kill its nodes (a fault test builds its own `RedisClusterHarness`).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.support.redis_cluster import RedisClusterHarness
from tests.support.redis_servers import RedisServer


@pytest.fixture
def redis_server_factory(request, tmp_path) -> Callable[..., RedisServer]:
    """Start RedisServers (keyword options of RedisServer) that die at the test's end."""
    count = 0

    def make(**options) -> RedisServer:
        nonlocal count
        count += 1
        options.setdefault("directory", tmp_path / f"redis-{count}")
        server = RedisServer(**options)
        request.addfinalizer(server.close)  # before start: a failed start is cleaned up too
        return server.start()

    return make


@pytest.fixture
def aof_redis(redis_server_factory) -> RedisServer:
    """A fresh real server with appendonly yes and appendfsync always."""
    return redis_server_factory(appendonly=True, appendfsync="always")


@pytest.fixture(scope="session")
def redis_cluster(request) -> RedisClusterHarness:
    """A real 3-master Redis Cluster on loopback, shared by the whole session."""
    cluster = RedisClusterHarness()
    request.addfinalizer(cluster.close)
    return cluster.start()
