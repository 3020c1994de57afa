"""store.core.hot_pool: the store's pool keeps a few clean connections aside for round trips, never
more than a quarter of its size, closes them with the client, drops them in a forked child,
and a connection the server closed while set aside costs its round trip nothing but a retry."""

from __future__ import annotations

import os
import uuid

import pytest
import redis

from store.core import roundtrip
from store.core.connection import store_client
from store.core.hot_pool import KEEP, HotPool


@pytest.fixture
def hot_client(redis_url):
    client = store_client(redis_url)
    yield client
    client.close()


@pytest.fixture
def key(redis_client) -> str:
    name = f"test:hot-pool:{uuid.uuid4().hex}"
    yield name
    redis_client.delete(name)


def test_the_store_client_draws_from_a_hot_pool(hot_client):
    assert type(hot_client.connection_pool) is HotPool
    assert isinstance(hot_client.connection_pool, redis.BlockingConnectionPool)


def test_a_round_trip_reuses_the_connection_it_set_aside(hot_client, key, monkeypatch):
    pool = hot_client.connection_pool
    roundtrip.execute(hot_client, [("SET", key, b"v")])
    (kept,) = pool._idle

    def no_pool_checkout(*_args, **_kwargs):
        raise AssertionError("the pool's checked path was taken")

    monkeypatch.setattr(HotPool, "get_connection", no_pool_checkout)
    assert roundtrip.execute(hot_client, [("GET", key)]) == [b"v"]
    assert pool._idle == [kept]


def test_at_most_keep_connections_wait_aside(redis_url):
    client = store_client(redis_url, max_connections=200)
    pool = client.connection_pool
    try:
        taken = [pool.checkout() for _ in range(KEEP + 3)]
        for connection in taken:
            pool.checkin(connection)
        assert len(pool._idle) == KEEP
        assert pool.pool.qsize() == 200 - KEEP  # the rest went back to the pool
    finally:
        client.close()


def test_a_small_pool_sets_nothing_aside(redis_url, key):
    client = store_client(redis_url, max_connections=3)
    try:
        roundtrip.execute(client, [("SET", key, b"v")])
        assert client.connection_pool.keep == 0 and client.connection_pool._idle == []
        assert roundtrip.execute(client, [("GET", key)]) == [b"v"]
    finally:
        client.close()


def test_closing_the_client_closes_the_connections_set_aside(redis_url, key):
    client = store_client(redis_url)
    roundtrip.execute(client, [("SET", key, b"v")])
    (kept,) = client.connection_pool._idle
    assert kept._sock is not None
    client.close()
    assert kept._sock is None


def test_a_connection_the_server_closed_while_aside_is_replaced(hot_client, redis_client, key):
    roundtrip.execute(hot_client, [("SET", key, b"v")])
    (kept,) = hot_client.connection_pool._idle
    own_id = redis_client.client_id()
    killed = redis_client.client_kill_filter(_id=_client_id_of(redis_client, kept, own_id))
    assert killed == 1
    assert roundtrip.execute(hot_client, [("GET", key)]) == [b"v"]


def _client_id_of(admin, connection, own_id: int) -> int:
    """The server's id of `connection` (its CLIENT ID, asked on it)."""
    connection.send_command("CLIENT", "ID")
    found = int(connection.read_response())
    if found == own_id:
        raise AssertionError("the admin client's own connection")
    return found


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_never_uses_its_parents_connections(hot_client, key):
    roundtrip.execute(hot_client, [("SET", key, b"v")])
    assert hot_client.connection_pool._idle
    child = os.fork()
    if child == 0:  # the child: its list is empty, its own round trip works
        status = 0 if hot_client.connection_pool._idle == [] else 3
        try:
            if roundtrip.execute(hot_client, [("GET", key)]) != [b"v"]:
                status = 4
        except Exception:
            status = 5
        os._exit(status)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert roundtrip.execute(hot_client, [("GET", key)]) == [b"v"]  # the parent's still work
