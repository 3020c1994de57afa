"""Pytest fixtures of a real PostgreSQL server for the archive tier's tests; enable with
`pytest_plugins = ["tests.support.postgres"]`.

- `postgres_server`: one server per test session (so one per xdist worker), started from the
  machine's binaries (devtools.postgres_server) in a temporary directory, on a unix socket
  of its own; tests are skipped, saying why, where none is installed.
- `archive_url`: a fresh database of that server for one test, set as KELTIS_ARCHIVE_URL
  while the test runs (so every EventStore made during it reads the archive).
- `archive`: the ArchiveStore of `archive_url`.
"""

from __future__ import annotations

import uuid

import pytest

from devtools.postgres_server import MISSING, PostgresServer, postgres_bin_dir
from store.archive.tier import URL_ENV, ArchiveStore, close_archive


@pytest.fixture(scope="session")
def postgres_server(request) -> PostgresServer:
    """A real PostgreSQL server for the session (skipped where the machine has none)."""
    if postgres_bin_dir() is None:
        pytest.skip(MISSING)
    server = PostgresServer()
    request.addfinalizer(server.close)  # before start: a failed start is cleaned up too
    return server.start()


@pytest.fixture
def archive_url(postgres_server, monkeypatch) -> str:
    """A fresh database of `postgres_server`, set as KELTIS_ARCHIVE_URL for the test."""
    url = postgres_server.create_database(f"t_{uuid.uuid4().hex[:16]}")
    monkeypatch.setenv(URL_ENV, url)
    yield url
    close_archive(url)


@pytest.fixture
def archive(archive_url) -> ArchiveStore:
    """The ArchiveStore of the test's database."""
    store = ArchiveStore(archive_url)
    yield store
    store.close()
