"""The store's connection pool: redis-py's BlockingConnectionPool with a few idle connections
kept aside for the hot path's round trips (store.core.roundtrip: a move's commit, a game's read).

redis-py's checkout and release of a connection check the process id (a system call,
twice per round trip), take a LIFO queue under a condition lock, count the connections for
its observability hooks, and poll the socket for unread data. A round trip of store.core.roundtrip
leaves its connection clean (every reply read, or the connection closed), so up to `keep`
such connections wait in a plain list for the next round trip, with only the poll:

- `keep` is at most KEEP and at most a quarter of the pool's size, so the connections set
  aside never starve the pool's other callers (a pool of 1 to 3 keeps none);
- a connection set aside stays checked out of the pool (counted against its size), so the
  pool's `disconnect()` (a client's close) closes it too; it reconnects on its next use;
- a fork empties every pool's list in the child (os.register_at_fork), which then never
  sends on its parent's sockets;
- a connection the server closed while it waited (a restart, CLIENT KILL, an idle timeout)
  is found so by that poll, as the pool finds it, and its round trip opens a new socket.
"""

from __future__ import annotations

import os
import weakref

import redis

KEEP = 8  # idle connections set aside per pool at most

_POOLS: weakref.WeakSet = weakref.WeakSet()
_FORK_HOOK: list[bool] = []  # registered once, on the first pool


def _forget_after_fork() -> None:
    for pool in list(_POOLS):
        pool.forget_idle()


class HotPool(redis.BlockingConnectionPool):
    """A BlockingConnectionPool with `checkout`/`checkin`, its cheap path for round trips."""

    def __init__(self, *args, **kwargs):
        self._idle: list = []
        super().__init__(*args, **kwargs)
        self.keep = min(KEEP, self.max_connections // 4)
        _POOLS.add(self)
        if not _FORK_HOOK:
            os.register_at_fork(after_in_child=_forget_after_fork)
            _FORK_HOOK.append(True)

    def reset(self) -> None:
        """The pool's reset (after a fork, redis-py's own check): nothing set aside either."""
        self._idle = []
        super().reset()

    def forget_idle(self) -> None:
        """Drop the connections set aside (in a forked child: its parent's sockets)."""
        self._idle = []

    def checkout(self):
        """A connection set aside (polled as the pool polls it), else one of the pool's."""
        try:
            connection = self._idle.pop()
        except IndexError:
            return pool_checkout(self)
        if connection._sock is not None and _stale(connection):
            connection.disconnect()  # the round trip's send connects it again
        return connection

    def checkin(self, connection) -> None:
        """Set `connection` (clean or closed) aside, or give it back to the pool."""
        if len(self._idle) < self.keep:
            self._idle.append(connection)
        else:
            self.release(connection)


def _stale(connection) -> bool:
    """Whether the server closed `connection`, or left data on it (the pool's own test)."""
    try:
        return connection.can_read()
    except (redis.ConnectionError, redis.TimeoutError, OSError):
        return True


def pool_checkout(pool):
    """`pool.get_connection()` without the wrapper redis-py puts around it to warn about
    deprecated arguments (none are passed here)."""
    undecorated = getattr(type(pool).get_connection, "__wrapped__", None)
    return pool.get_connection() if undecorated is None else undecorated(pool)
