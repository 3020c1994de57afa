"""Fixtures of the tournament tests: an app on the real test Redis, real worker processes."""

from __future__ import annotations

import subprocess

import pytest
import redis
from rq import SimpleWorker
from rq.serializers import JSONSerializer

from application.operations.jobs import queues, tournament_queue
from tests.tournaments.open_stack import http, web, webhook_account, workers  # noqa: F401
from tests.workers.processes import worker_starter


@pytest.fixture
def run_queued_jobs(redis_client):
    """Work the tournament queue in this process until it is empty (RQ's own job path)."""

    def run() -> None:
        queue = tournament_queue(redis_client)
        worker = SimpleWorker([queue], connection=redis_client, serializer=JSONSerializer)
        worker.work(burst=True, logging_level="ERROR", with_scheduler=False)

    return run


@pytest.fixture
def start_workers(redis_url):
    """Start real `keltis worker` processes (fast sweep) on the test Redis; stopped after."""
    with worker_starter(redis_url, "--sweep-every", "0.3", quiet=True) as start_one:

        def start(count: int, stale_after_s: float = 1.0) -> list[subprocess.Popen]:
            return [start_one("--stale-after", str(stale_after_s)) for _ in range(count)]

        yield start


@pytest.fixture
def drained_tournament_queue(redis_client):
    """Empty every queue a worker serves before a test that counts on its own jobs only:
    workers serve the bot lanes first, so bot turns left queued by earlier tests on the same
    Redis (games abandoned mid-play) would hold its workers before the tournament's jobs."""
    for queue in queues(redis_client):
        queue.empty()
    return redis_client


@pytest.fixture(autouse=True)
def _forget_running_tournaments(request):
    """After each test: no tournament of it stays `running` (later workers would sweep it)."""
    yield
    if "redis_url" not in request.fixturenames:
        return
    from store.keys import tournaments_running as running_key

    client = redis.Redis.from_url(request.getfixturevalue("redis_url"))
    client.delete(running_key())
    tournament_queue(client).empty()
    client.close()
