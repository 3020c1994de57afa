"""Per-request observation: a request id (echoed in `X-Request-Id`), the request metrics
(application.metrics.counters: by URL rule, method and status, with latency) and one structured JSON
log line per request (api.core.request_log says where).

Kept cheap and in one place: one clock read before and one after, cached metric series, one
orjson dump and one write(2) of the whole line (api.core.request_log: stderr, a file, or off; the
`logging` module would cost more than the rest of the hook). The line never holds a token,
a key, a body or a query string: method, route (the URL rule), path (cut), status,
milliseconds, request id, and the account when the request named one. REQUEST_LOG_SINK
(config) is a callable taking each line's bytes instead.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, Response, request

from api.core import request_log
from api.core.observation import ACCOUNT, REQUEST_ID_HEADER, STARTED, begin, record_answer

SINK_EXTENSION = "keltis_request_log_sink"


def note_account(name: str) -> None:
    """Name the account the current request acts for (for its log line)."""
    request.environ[ACCOUNT] = name


def _begin() -> None:
    begin(request.environ)


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
    """Where the request lines of `app` go (api.core.request_log): config REQUEST_LOG_SINK, else
    KELTIS_REQUEST_LOG; apps made with TESTING=True write none unless REQUEST_LOG is set."""
    setting = request_log.setting()
    enabled = setting.strip().lower() != request_log.OFF and not app.testing
    app.config.setdefault("REQUEST_LOG", enabled)
    if not app.config["REQUEST_LOG"]:
        return None
    return app.config.get("REQUEST_LOG_SINK") or request_log.sink_of(setting)


def init_app(app: Flask) -> None:
    """Observe every request of `app`; register before the hooks that may refuse one. The
    sink is kept in `app.extensions[SINK_EXTENSION]` for api.games.fast_moves."""
    sink = log_sink(app)
    app.extensions[SINK_EXTENSION] = sink
    app.before_request(_begin)
    app.after_request(observer(sink))
