"""One round trip of several commands to a standalone Redis, without redis-py's Pipeline.

A move's hot path (store.games.commit's append and index scripts, store.games.eventstore's read of a
game) sends a few commands at once. redis-py's Pipeline object costs more than the round
trip's own packing, sending and parsing (command queueing, the HIMPORT bookkeeping, the
observability hooks, option dicts per command): `execute` does only what such a pipeline of
plain commands needs, on the same pooled connection, with the same results:

- a connection from the client's pool (with the pool's own check that it holds no stale
  data), given back afterwards; the store's own pool (store.core.hot_pool) keeps a few clean
  connections aside instead, without the checks;
- every reply read before anything is raised (the socket never desyncs), a command's error
  (`redis.ResponseError`, e.g. NoScriptError) returned in its place or, with
  `raise_on_error`, the first one raised;
- the client's response callbacks applied as redis-py applies them;
- a connection or timeout error retried as the connection's Retry says (the connection
  closed first), as redis-py's pipelines are;
- a connection left in an unknown state (an exception while sending or reading, a gevent
  Timeout included) closed before it goes back to the pool.

A Redis Cluster client (or anything but a plain `redis.Redis`) goes through its own
pipeline instead (`Batch.execute` chooses).
"""

from __future__ import annotations

from collections.abc import Sequence

import redis
from redis.connection import HiredisRespSerializer
from redis.exceptions import DataError, ResponseError

from store.core.hot_pool import HotPool, pool_checkout

try:
    from hiredis import pack_command as _HIREDIS_PACK
except ImportError:  # redis-py packs in Python then
    _HIREDIS_PACK = None

Command = tuple


class Batch:
    """Commands collected for one round trip (the subset of a Pipeline's methods the hot
    paths use); `execute` sends them."""

    __slots__ = ("client", "commands")

    def __init__(self, client):
        self.client = client
        self.commands: list[Command] = []

    def evalsha(self, sha: str, numkeys: int, *keys_and_args) -> None:
        self.commands.append(("EVALSHA", sha, numkeys, *keys_and_args))

    def lrange(self, key: str, start: int, end: int) -> None:
        self.commands.append(("LRANGE", key, start, end))

    def hgetall(self, key: str) -> None:
        self.commands.append(("HGETALL", key))

    def llen(self, key: str) -> None:
        self.commands.append(("LLEN", key))

    def get(self, key: str) -> None:
        self.commands.append(("GET", key))

    def hget(self, key: str, field: str) -> None:
        self.commands.append(("HGET", key, field))

    def execute(self, raise_on_error: bool = True) -> list:
        """The replies, in order (see the module's docstring)."""
        if type(self.client) is not redis.Redis:  # a cluster (or any other client)
            pipe = self.client.pipeline(transaction=False)
            for name, *args in self.commands:
                pipe.execute_command(name, *args)
            return pipe.execute(raise_on_error=raise_on_error)
        return execute(self.client, self.commands, raise_on_error)


def execute(client: redis.Redis, commands: Sequence[Command], raise_on_error: bool = True) -> list:
    """Send `commands` to a standalone Redis in one write and read their replies."""
    pool = client.connection_pool
    hot = type(pool) is HotPool
    connection = pool.checkout() if hot else pool_checkout(pool)
    try:
        replies = connection.retry.call_with_retry(
            lambda: _exchange(connection, commands), lambda _error: connection.disconnect()
        )
    except BaseException:
        connection.disconnect()  # replies may be left unread: never reuse the socket as is
        raise
    finally:
        if hot:
            pool.checkin(connection)
        else:
            pool.release(connection)
    callbacks = client.response_callbacks
    for index, (command, reply) in enumerate(zip(commands, replies, strict=True)):
        if isinstance(reply, ResponseError):
            if raise_on_error:
                raise reply
            continue
        callback = callbacks.get(command[0])
        if callback is not None:
            replies[index] = callback(reply)
    return replies


def _packed(connection, commands: Sequence[Command]) -> list[bytes]:
    """The commands in the Redis protocol: by hiredis in one call per command when the
    connection packs with hiredis anyway (its serializer adds only checks these commands
    never need: a command name with spaces, buffers), else as the connection packs them."""
    if _HIREDIS_PACK is None or type(connection._command_packer) is not HiredisRespSerializer:
        return connection.pack_commands(commands)
    try:
        return [b"".join(map(_HIREDIS_PACK, commands))]
    except TypeError as error:
        raise DataError(str(error)) from error


def _exchange(connection, commands: Sequence[Command]) -> list:
    connection.send_packed_command(_packed(connection, commands), check_health=False)
    replies = []
    for _ in commands:
        try:
            replies.append(connection.read_response())
        except ResponseError as error:
            replies.append(error)
    return replies
