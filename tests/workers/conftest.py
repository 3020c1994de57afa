"""Fixtures of the worker tests: a real `keltis worker` process on the test Redis; webhook
servers on 127.0.0.1."""

from __future__ import annotations

import pytest

from application.games.service import GameService
from application.operations import jobs
from tests.support.webhook_server import WebhookServer, first_legal
from tests.workers.processes import start_worker, stop


@pytest.fixture
def quiet_service(redis_client):
    """A service that enqueues nothing (the test drives the bot job itself)."""
    return GameService(redis_client)


@pytest.fixture
def empty_queues(redis_client):
    """Every queue of the service (and the bulk lane's fair queue) empty before and after
    the test."""
    for queue in jobs.queues(redis_client):
        queue.empty()
    jobs.fair_queue(redis_client).empty()
    yield redis_client
    for queue in jobs.queues(redis_client):
        queue.empty()
    jobs.fair_queue(redis_client).empty()


@pytest.fixture
def scheduling_service(redis_client):
    """A GameService whose due bot turns become RQ jobs (as the API's)."""
    return GameService(redis_client, scheduler=jobs.BotTurnQueue(redis_client))


@pytest.fixture
def worker_process(redis_url):
    """A real RQ worker (with a fast sweep), killed at teardown."""
    process = start_worker(redis_url, "--sweep-every", "0.3", "--stale-after", "0.5")
    yield process
    stop(process)


@pytest.fixture
def webhook():
    """A webhook server factory; every server is closed at teardown."""
    servers = []

    def make(behaviour=first_legal) -> WebhookServer:
        server = WebhookServer(behaviour).start()
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.close()
