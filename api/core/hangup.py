"""A held stream ends as soon as its client hangs up, not at its next write.

A client of a streamed response sends nothing more on its connection, so the connection
turning readable means the client closed it (or sent something, which is left unread).
Without this watch a closed stream is noticed only when a write fails, one or two
keep-alives later (10-20 s), and everything that counts on the stream's slot (a seek's
liveness, the bounds on held streams) outlives the client by as much.

The watch needs gunicorn's gevent workers (the connection's socket in the environ, a
greenlet per request); elsewhere (the test client, a threaded server) it does nothing.
"""

from __future__ import annotations

import os
import socket
import ssl
from collections.abc import Callable

SOCKET_KEY = "gunicorn.socket"


def _nothing() -> None:
    return None


def watch(sock, sender) -> Callable[[], None]:
    """Kill `sender` (the greenlet sending the stream) with GreenletExit once the client
    closed `sock`; the function that ends the watch (call it when the stream ends).

    The watch is a bare io watcher on the event loop, not a greenlet: a held stream costs
    one greenlet (its own) and no saved stack more."""
    if sock is None or isinstance(sock, ssl.SSLSocket):  # TLS: a peek cannot tell
        return _nothing
    try:
        import gevent
        from gevent import get_hub
    except ImportError:
        return _nothing
    try:
        watcher = get_hub().loop.io(sock.fileno(), 1)
    except (OSError, ValueError):
        return _nothing

    def readable() -> None:
        # A peek on a plain socket of the same connection: the event loop runs this callback,
        # where gevent's own socket may not wait.
        try:
            with socket.socket(fileno=os.dup(sock.fileno())) as peek:
                sent = peek.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except BlockingIOError:
            return  # nothing to read after all: keep watching
        except OSError:
            sent = b""  # reset by the peer: hung up too
        watcher.stop()
        if not sent:  # else the client sent something: not a hang-up, leave it unread
            gevent.kill(sender)

    watcher.start(readable)

    def unwatch() -> None:
        watcher.stop()
        watcher.close()

    return unwatch
