"""Load: Redis pools sized to the connections gunicorn serves, so a burst of simultaneous
requests (long-polls included) gets no 5xx; /healthz checks share their PINGs."""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter

import pytest
import redis

from api.operations.meta import SharedPing
from bench.load import create_game, games_for, mix
from bench.loadgen import NotLoopback, burst, loopback_address
from cli.serve import WEB_CONNECTIONS, gunicorn_command, web_pool_size
from devtools.reliability.web import WebServer
from store.core.connection import (
    POOL_SIZE_ENV,
    POOL_TIMEOUT_ENV,
    BadPoolSetting,
    queue_client,
    store_client,
)
from tests.support.ports import free_port  # this worker's own range

SIMULTANEOUS = 400
POLL_WAIT_S = 2


def test_store_and_queue_clients_block_on_pools_of_the_configured_size(monkeypatch):
    monkeypatch.setenv(POOL_SIZE_ENV, "321")
    monkeypatch.setenv(POOL_TIMEOUT_ENV, "1.5")
    for client in (store_client("redis://127.0.0.1:1/0"), queue_client("unix:///nowhere.sock")):
        pool = client.connection_pool
        assert isinstance(pool, redis.BlockingConnectionPool)
        assert (pool.max_connections, pool.timeout) == (321, 1.5)


@pytest.mark.parametrize("setting", ["0", "-3", "ten", "²"])
def test_a_bad_pool_size_is_refused(monkeypatch, setting):
    monkeypatch.setenv(POOL_SIZE_ENV, setting)
    with pytest.raises(BadPoolSetting):
        store_client("redis://127.0.0.1:1/0")


def test_a_busy_pool_waits_its_timeout_then_fails_as_a_redis_error(monkeypatch, redis_url):
    monkeypatch.setenv(POOL_SIZE_ENV, "1")
    monkeypatch.setenv(POOL_TIMEOUT_ENV, "0.2")
    client = store_client(redis_url)
    held = client.connection_pool.get_connection()
    try:
        started = time.monotonic()
        with pytest.raises(redis.ConnectionError):
            client.ping()
        assert time.monotonic() - started >= 0.2
    finally:
        client.connection_pool.release(held)
    assert client.ping()
    client.close()


@pytest.mark.redis
def test_cluster_clients_block_on_sized_pools_per_node(monkeypatch, redis_cluster):
    monkeypatch.setenv(POOL_SIZE_ENV, "77")
    client = store_client(redis_cluster.url.replace("redis://", "redis+cluster://"))
    try:
        assert client.ping()
        pools = [node.redis_connection.connection_pool for node in client.get_nodes()]
        assert pools and all(isinstance(p, redis.BlockingConnectionPool) for p in pools)
        assert {p.max_connections for p in pools} == {77}
    finally:
        client.close()


def test_gunicorn_processes_get_a_pool_as_large_as_their_connections(monkeypatch):
    monkeypatch.delenv(POOL_SIZE_ENV, raising=False)
    command = gunicorn_command("127.0.0.1", 8000, connections=123)
    assert command[command.index("--worker-connections") + 1] == "123"
    assert command[command.index("--env") + 1] == f"{POOL_SIZE_ENV}=123"
    assert web_pool_size(WEB_CONNECTIONS) == WEB_CONNECTIONS
    monkeypatch.setenv(POOL_SIZE_ENV, "50")  # never below the connections
    assert web_pool_size(123) == 123
    monkeypatch.setenv(POOL_SIZE_ENV, "900")
    assert web_pool_size(123) == 900


class CountingClient:
    """A store whose PING takes `delay_s`, counting the PINGs it answered."""

    def __init__(self, delay_s: float, error: Exception | None = None):
        self.delay_s = delay_s
        self.error = error
        self.pings = 0
        self.sent_at: list[float] = []

    def ping(self):
        self.sent_at.append(time.monotonic())
        time.sleep(self.delay_s)
        self.pings += 1
        if self.error is not None:
            raise self.error
        return True


def test_simultaneous_health_checks_share_pings():
    shared, store = SharedPing(), CountingClient(delay_s=0.05)
    arrivals, done = [], []
    together = threading.Barrier(50)

    def check():
        together.wait()
        arrivals.append(time.monotonic())
        shared.check(store)
        done.append(True)

    threads = [threading.Thread(target=check) for _ in range(50)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(done) == 50
    # the first one's, then one for everyone who waited on it; a loaded machine may spread
    # the arrivals over more than one ping: at most one more ping per ping-time of spread
    spread_pings = int((max(arrivals) - min(arrivals)) / 0.05)
    assert store.pings <= 3 + spread_pings < 50


def test_a_health_check_never_takes_an_older_pings_answer():
    shared, store = SharedPing(), CountingClient(delay_s=0.0)
    shared.check(store)
    shared.check(store)
    assert store.pings == 2


def test_a_shared_ping_failure_fails_every_check_that_shares_it():
    shared = SharedPing()
    store = CountingClient(delay_s=0.0, error=redis.ConnectionError("down"))
    for _ in range(2):
        with pytest.raises(redis.ConnectionError):
            shared.check(store)
    store.error = None
    shared.check(store)


def test_the_load_generator_talks_to_loopback_only():
    assert loopback_address("http://127.0.0.1:8000") == ("127.0.0.1", 8000)
    with pytest.raises(NotLoopback):
        loopback_address("http://example.com:80")


@pytest.mark.slow
@pytest.mark.redis
def test_400_simultaneous_requests_of_a_mix_get_no_5xx(redis_url):
    """Healthz, game views, long-polls and moves, all at once against gunicorn as `keltis
    serve` runs it (rate limit counting): every request is answered, none with a 5xx, and
    each kind with its success status."""
    env = {"REDIS_URL": redis_url, "KELTIS_RATE_LIMIT": "1000000 per second"}
    with WebServer(env, workers=2, port=free_port()) as server:
        games = [create_game(server.url) for _ in range(games_for(SIMULTANEOUS))]
        requests = mix(games, SIMULTANEOUS, POLL_WAIT_S)
        results = asyncio.run(burst(server.url, requests, timeout_s=POLL_WAIT_S + 40))
    statuses = Counter((r.kind, r.status) for r in results)
    assert len(results) == SIMULTANEOUS
    assert not [r for r in results if r.status >= 500 or r.status == 0], statuses
    assert statuses == Counter(
        {(kind, 200): SIMULTANEOUS // 4 for kind in ("healthz", "game", "poll", "move")}
    )
