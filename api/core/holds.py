"""The bounds on held requests (application.live.holds) for the API: settings, the process's
gate, and `take`, called by a stream or a long poll before its response starts.

Settings (the app's config wins over the environment; 0 or "off": no bound):
KELTIS_STREAMS_PER_ADDRESS (32), KELTIS_STREAMS_PER_ACCOUNT (8), KELTIS_STREAMS_PER_PROCESS
(150: keep it below gunicorn's worker connections, so ordinary requests always have room),
KELTIS_STREAM_LEASE_S (30); an app made with TESTING=True has no bound per address unless
its config or the environment gives one. The client address is the connection's
(`remote_addr`): behind a reverse proxy wrap the app in werkzeug's ProxyFix as for the rate
limit (api.core.ratelimit); a client's own X-Forwarded-For is never trusted.

A refused request's connection is closed after the answer (under gunicorn, whose socket is
shut for reading once the answer is written: a WSGI app may not send `Connection`), so a
client that floods with held requests does not keep the server's connections busy with idle
keep-alives.
"""

from __future__ import annotations

import contextlib
import socket

from flask import Flask, after_this_request, current_app, request

import settings
from api.core import extensions
from api.core.auth import client_address
from application.live import holds
from application.live.errors import StreamsBusy, TooManyStreams
from store.live.streams import SlotStore

EXTENSION = "keltis_holds"
LEASE_MARGIN_S = 10.0  # a long poll's lease: its wait and this


def _or(value: int | None, default: int) -> int:
    """The bound set (0: none), else `default`."""
    return default if value is None else value


def init_app(app: Flask) -> None:
    """The settings into the app's config, a slot store and this process's gate."""
    # Every client of a test app is one address: no bound unless the test sets one.
    per_address = 0 if app.testing else holds.PER_ADDRESS
    configured = settings.current()
    app.config.setdefault("STREAMS_PER_ADDRESS", _or(configured.streams_per_address, per_address))
    app.config.setdefault("STREAMS_PER_ACCOUNT", configured.streams_per_account)
    app.config.setdefault(
        "STREAMS_PER_PROCESS", _or(configured.streams_per_process, holds.PER_PROCESS)
    )
    app.config.setdefault("STREAM_LEASE_S", configured.stream_lease_s)
    client = app.extensions[extensions.EXTENSION].client
    app.extensions[EXTENSION] = (SlotStore(client), holds.ProcessGate())


def limits() -> holds.HoldLimits:
    config = current_app.config
    return holds.HoldLimits(
        per_address=config["STREAMS_PER_ADDRESS"],
        per_account=config["STREAMS_PER_ACCOUNT"],
        per_process=config["STREAMS_PER_PROCESS"],
        lease_s=config["STREAM_LEASE_S"],
    )


def take(account: str | None, lease_s: float | None = None) -> holds.Hold:
    """Slots for the request about to be held (429 / 503 at a bound, nothing taken, and the
    connection closed after the answer)."""
    store, gate = current_app.extensions[EXTENSION]
    try:
        return holds.hold(store, gate, limits(), client_address(), account, lease_s)
    except (TooManyStreams, StreamsBusy):
        after_this_request(_close_connection)
        raise


def _close_connection(response):
    sock = request.environ.get("gunicorn.socket")
    if sock is not None:
        response.call_on_close(lambda: _shut_reading(sock))
    return response


def _shut_reading(sock) -> None:
    """No further request is read from this connection: the server closes it."""
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RD)
