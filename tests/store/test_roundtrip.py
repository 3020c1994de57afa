"""store.core.roundtrip: one raw round trip answers as redis-py's pipeline does (replies in order,
errors in place or raised, callbacks applied), and never hands a connection back to the pool
with replies left unread on it."""

from __future__ import annotations

import uuid

import pytest
import redis
from redis.exceptions import NoScriptError, ResponseError

from store.core import roundtrip
from store.core.roundtrip import Batch


@pytest.fixture
def key(redis_client) -> str:
    name = f"test:roundtrip:{uuid.uuid4().hex}"
    yield name
    redis_client.delete(name, name + ":list", name + ":hash")


def test_replies_match_the_pipelines(redis_client, key):
    redis_client.rpush(key + ":list", b"a", b"b", b"c")
    redis_client.hset(key + ":hash", mapping={"0": "x", "1": "y"})
    batch, pipe = Batch(redis_client), redis_client.pipeline(transaction=False)
    for target in (batch, pipe):
        target.lrange(key + ":list", 1, -1)
        target.hgetall(key + ":hash")
        target.llen(key + ":list")
        target.get(key)
        target.hget(key + ":hash", "1")
    assert batch.execute() == pipe.execute()


def test_errors_in_place_or_raised(redis_client, key):
    commands = [("GET", key), ("EVALSHA", "0" * 40, 0), ("LLEN", key + ":list")]
    replies = roundtrip.execute(redis_client, commands, raise_on_error=False)
    assert replies[0] is None and replies[2] == 0
    assert isinstance(replies[1], NoScriptError)
    with pytest.raises(NoScriptError):
        roundtrip.execute(redis_client, commands)
    # the connection is still in step: the next round trip reads its own replies
    redis_client.set(key, b"v")
    assert roundtrip.execute(redis_client, [("GET", key)]) == [b"v"]


def test_a_wrong_type_is_a_response_error_in_place(redis_client, key):
    redis_client.set(key, b"v")
    replies = roundtrip.execute(redis_client, [("LLEN", key), ("GET", key)], raise_on_error=False)
    assert isinstance(replies[0], ResponseError) and replies[1] == b"v"


class Interrupted(BaseException):
    """Stands for a gevent Timeout arriving while replies are read."""


def test_an_interrupted_exchange_closes_its_connection(redis_client, key, monkeypatch):
    redis_client.set(key, b"v")
    pool = redis_client.connection_pool
    reads = {"n": 0}
    original = redis.connection.AbstractConnection.read_response

    def interrupted_read(self, *args, **kwargs):
        reads["n"] += 1
        if reads["n"] == 1:
            raise Interrupted()
        return original(self, *args, **kwargs)

    monkeypatch.setattr(redis.connection.AbstractConnection, "read_response", interrupted_read)
    with pytest.raises(Interrupted):
        roundtrip.execute(redis_client, [("GET", key), ("GET", key)])
    monkeypatch.setattr(redis.connection.AbstractConnection, "read_response", original)
    assert all(c._sock is None for c in pool._available_connections)  # closed, not dirty
    assert roundtrip.execute(redis_client, [("GET", key)]) == [b"v"]


def test_another_client_goes_through_its_own_pipeline(redis_client, key):
    class Wrapped(redis.Redis):
        """Not a plain redis.Redis (as a cluster client is not): its pipeline is used."""

    other = Wrapped(connection_pool=redis_client.connection_pool)
    redis_client.set(key, b"v")
    batch = Batch(other)
    batch.get(key)
    assert batch.execute() == [b"v"]
