"""Observing one request, Flask-free: its id, its clock, its metrics and its log line
(api.core.observe's hooks and api.games.fast_moves both call these; api.core.observe says what is
kept)."""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Callable

import orjson

from application.metrics import counters as metrics

REQUEST_ID_HEADER = "X-Request-Id"
# An incoming id is kept when it is short and plain; anything else gets a fresh one.
REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}", re.ASCII)
MAX_PATH_CHARS = 200
MAX_METHOD_CHARS = 16


def request_id(incoming: str | None) -> str:
    """The request's id: a sane incoming one, else 16 fresh hex digits."""
    if incoming is not None and REQUEST_ID.fullmatch(incoming):
        return incoming
    return secrets.token_hex(8)


STARTED, ID, ACCOUNT = "keltis.started", "keltis.request_id", "keltis.account"  # environ keys


def begin(environ: dict) -> None:
    """Start observing a request: its clock and its id."""
    environ[STARTED] = time.perf_counter()
    environ[ID] = request_id(environ.get("HTTP_X_REQUEST_ID"))


def record_answer(
    environ: dict,
    sink: Callable[[bytes], object] | None,
    route: str | None,
    method: str,
    path: str,
    status: int,
) -> str:
    """Count one answer begun with `begin` and write its log line to `sink` (None: no
    line); returns the request id the answer echoes."""
    seconds = time.perf_counter() - environ[STARTED]
    metrics.request_answered(route, method, status, seconds)
    if sink is not None:
        line = {
            "at": round(time.time(), 3),
            "request_id": environ[ID],
            "method": method[:MAX_METHOD_CHARS],
            "route": route or metrics.UNMATCHED_ROUTE,
            "path": path[:MAX_PATH_CHARS],
            "status": status,
            "ms": round(seconds * 1000, 2),
        }
        account = environ.get(ACCOUNT)
        if account is not None:
            line["account"] = account
        sink(orjson.dumps(line, option=orjson.OPT_APPEND_NEWLINE))
    return environ[ID]
