"""Per-request observation: a request id (echoed in `X-Request-Id`), the request metrics
(application.metrics: by URL rule, method and status, with latency) and one structured JSON
log line per request (api.request_log says where).

Kept cheap and in one place: one clock read before and one after, cached metric series, one
orjson dump and one write(2) of the whole line (api.request_log: stderr, a file, or off; the
`logging` module would cost more than the rest of the hook). The line never holds a token,
a key, a body or a query string: method, route (the URL rule), path (cut), status,
milliseconds, request id, and the account when the request named one. REQUEST_LOG_SINK
(config) is a callable taking each line's bytes instead.
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Callable

import orjson
from flask import Flask, Response, request

from api import request_log
from application import metrics

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
SINK_EXTENSION = "keltis_request_log_sink"


def note_account(name: str) -> None:
    """Name the account the current request acts for (for its log line)."""
    request.environ[ACCOUNT] = name


def _begin() -> None:
    begin(request.environ)


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


def observer(sink: Callable[[bytes], object] | None) -> Callable[[Response], Response]:
    """The after-request hook: count the answer, echo the id, write the log line to `sink`
    (None: no log line)."""

    def answered(response: Response) -> Response:
        req = request._get_current_object()  # one context lookup for all that follows
        environ = req.environ
        if STARTED not in environ:  # an earlier hook refused the request before ours ran
            begin(environ)
        rule = req.url_rule
        route = rule.rule if rule is not None else None
        status = response.status_code
        response.headers[REQUEST_ID_HEADER] = record_answer(
            environ, sink, route, req.method, req.path, status
        )
        return response

    return answered


def log_sink(app: Flask) -> request_log.Sink | None:
    """Where the request lines of `app` go (api.request_log): config REQUEST_LOG_SINK, else
    KELTIS_REQUEST_LOG; apps made with TESTING=True write none unless REQUEST_LOG is set."""
    setting = request_log.setting()
    enabled = setting.strip().lower() != request_log.OFF and not app.testing
    app.config.setdefault("REQUEST_LOG", enabled)
    if not app.config["REQUEST_LOG"]:
        return None
    return app.config.get("REQUEST_LOG_SINK") or request_log.sink_of(setting)


def init_app(app: Flask) -> None:
    """Observe every request of `app`; register before the hooks that may refuse one. The
    sink is kept in `app.extensions[SINK_EXTENSION]` for api.fast_moves."""
    sink = log_sink(app)
    app.extensions[SINK_EXTENSION] = sink
    app.before_request(_begin)
    app.after_request(observer(sink))
