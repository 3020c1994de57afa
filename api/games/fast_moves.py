"""A move's two requests answered without Flask's request machinery.

`POST /v1/games/{id}/moves` and `GET /v1/games/{id}/moves?version=N` are most of what a
playing client sends. Flask's request context, URL routing, hooks and Response objects cost
them more than their own work: about 200 of the 520 microseconds a move took in one process
(`python -m bench inprocess`). This WSGI middleware answers the usual shape of these two
requests itself. Every step is the one the Flask view and hooks call (api.games.move_steps for
the request's parts, the move and its answer; api.core.observation for the request id, metrics
and log line; api.core.ratecount for the rate limit), and each of the app's request hooks is
declared in HOOKS with the step run in its place or why it may be skipped: an app with an
undeclared hook refuses to start (UndeclaredHook), so a hook added to the app cannot be
missed here silently.

- the usual shape: a seat token (not an account key) as `Authorization: Bearer`; a POST
  with a plain JSON body of the usual shape (api.games.move_steps.usual); a GET whose query is
  `version=N` alone; not in debug mode, not on the metrics listener;
- every other request goes to Flask as it came (a body already read is given back);
- an error (a refused move, a bad token or header, the rate limit, Redis down) is answered
  by Flask's own error handlers and after-request hooks, in a request context made for it:
  the one JSON error shape, as the views would answer it. The move is never run twice.

`FAST_MOVES` (config; KELTIS_FAST_MOVES=off) turns it off. tests/api/test_fast_moves.py
compares the answers of both paths.
"""

from __future__ import annotations

import io
import re
from http import HTTPStatus

from flask import Flask, signals

import settings
from api.core import (
    environ_credentials,
    extensions,
    json_provider,
    metrics_endpoint,
    observation,
    observe,
    prefer,
    ratelimit,
)
from api.games import move_steps
from application.accounts import auth
from application.accounts.errors import Unauthenticated
from application.games import moves_at

ENV = "KELTIS_FAST_MOVES"
ENDPOINTS = ("games.post_move", "games.get_moves")  # the views answered here
# A game id of printable ASCII without "/" (ids are URL-safe base64): decoded alike by WSGI's
# latin-1 and by werkzeug's UTF-8; any other path goes to Flask.
MOVES_PATH = re.compile(r"/v1/games/([!-.0-~]+)/moves")
STATUS_LINES = {200: "200 OK"}  # the usual one, without the enum's lookup
# Each request hook of the app, by qualified name: the step the fast path runs in its
# place, or why the fast path may skip it.
HOOKS = {
    "api.core.observe._begin": "observation.begin",
    "api.core.ratelimit.init_app.<locals>._count_request": "RateLimit.count",
    "api.core.metrics_endpoint._only_metrics_there.<locals>.check": (
        "skipped: a request on the metrics listener goes to Flask"
    ),
    "api.core.observe.observer.<locals>.answered": "observation.record_answer",
    "api.games.headers._caching": "move_steps.seat_cache_control (Vary: Authorization)",
}
SIGNALS = (signals.request_started, signals.request_finished)  # receivers are hooks too


class UndeclaredHook(RuntimeError):
    """The app has a request hook that the fast path neither runs nor may skip."""


class FastMoves:
    """The WSGI callable in front of a Flask app's own (`flask_wsgi`)."""

    def __init__(self, app: Flask, flask_wsgi):
        self.app = app
        self.flask = flask_wsgi
        self.games = app.extensions[extensions.EXTENSION]
        self.rate_limit = app.extensions.get(ratelimit.EXTENSION)
        self.sink = app.extensions.get(observe.SINK_EXTENSION)
        self.metrics_bind = app.config.get("METRICS_BIND")
        self.max_length = app.config["MAX_CONTENT_LENGTH"]
        self.routes = routes_of(app)
        self.checked = False  # the hooks, once more at the first request (Flask's setup end)
        check_hooks(app)

    def __call__(self, environ: dict, start_response):
        if not self.checked:
            check_hooks(self.app)
            self.checked = True
        match = MOVES_PATH.fullmatch(environ.get("PATH_INFO", ""))
        token = _seat_token(environ) if match is not None else None
        if token is None or self.app.debug or self._on_metrics_listener(environ):
            return self.flask(environ, start_response)
        method = environ.get("REQUEST_METHOD")
        if method == "GET":
            version = move_steps.plain_version(environ.get("QUERY_STRING", ""))
            if version is None:
                return self.flask(environ, start_response)
            observation.begin(environ)
            try:
                self._count(environ)
                answer = self._moves(environ, match.group(1), token, version)
            except Exception as error:
                return self._error(environ, start_response, error)
            return self._answer(environ, start_response, method, answer)
        size = move_steps.plain_json_length(environ, self.max_length) if method == "POST" else None
        if size is None:
            return self.flask(environ, start_response)
        observation.begin(environ)
        try:
            self._count(environ)
            raw = move_steps.read_body(environ, size)
            command = move_steps.usual_command(raw)
            if command is None:  # a body for the schema: Flask's path reads it again
                environ["wsgi.input"] = io.BytesIO(raw)
                return self.flask(environ, start_response)
            answer = self._play(environ, match.group(1), token, command)
        except Exception as error:
            return self._error(environ, start_response, error)
        return self._answer(environ, start_response, method, answer)

    def _on_metrics_listener(self, environ: dict) -> bool:
        return bool(self.metrics_bind) and metrics_endpoint.came_on(environ, self.metrics_bind)

    def _count(self, environ: dict) -> None:
        """The rate limit's count, as its hook makes it (RateLimited when over)."""
        if self.rate_limit is not None:
            self.rate_limit.count(environ)

    def _moves(self, environ: dict, game_id: str, token: str, version: int) -> tuple:
        """api.games.endpoints.get_moves with a plain `version` query."""
        seat = environ_credentials.seat_header(environ)
        record, seat = moves_at.seat_at(self.games, game_id, token, seat, version)
        return 200, move_steps.moves_answer(record, seat), []

    def _play(self, environ: dict, game_id: str, token: str, command: dict) -> tuple:
        """api.games.endpoints.post_move, step by step."""
        expected = move_steps.expected_version(command, environ)
        key = move_steps.idempotency_key(environ)
        minimal = prefer.minimal_in(environ)
        seat = environ_credentials.seat_header(environ)
        answer = move_steps.play_move(
            self.games, game_id, token, command, expected, key, minimal, seat
        )
        return answer.status, answer.body, move_steps.move_headers(answer, minimal)

    def _answer(self, environ: dict, start_response, method: str, answer: tuple):
        """The JSON answer with the headers the views and the hooks give it."""
        status, body, view_headers = answer
        raw = json_provider.json_body(body, self.app.json.default)
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(raw)))]
        headers += view_headers
        headers.append(("Vary", "Authorization"))
        headers.append(("Cache-Control", move_steps.seat_cache_control(environ)))
        request_id = observation.record_answer(
            environ, self.sink, self.routes[method], method, environ["PATH_INFO"], status
        )
        headers.append((observation.REQUEST_ID_HEADER, request_id))
        start_response(STATUS_LINES.get(status) or f"{status} {HTTPStatus(status).phrase}", headers)
        return [raw]

    def _error(self, environ: dict, start_response, error: Exception):
        """Flask's answer to `error` raised by a view of this request: its error handlers,
        then its after-request hooks (as Flask's full_dispatch_request does)."""
        app = self.app
        with app.request_context(environ):
            try:
                response = app.handle_user_exception(error)
            except Exception as unhandled:
                response = app.handle_exception(unhandled)
            response = app.finalize_request(response)
            return response(environ, start_response)


def routes_of(app: Flask) -> dict[str, str]:
    """The URL rule of each method answered here, as the metrics and the log line name it."""
    routes = {}
    for rule in app.url_map.iter_rules():
        if rule.endpoint in ENDPOINTS:
            routes.update((method, rule.rule) for method in rule.methods - {"HEAD", "OPTIONS"})
    return routes


def app_hooks(app: Flask) -> set[str]:
    """The qualified names of every request hook of `app`, its blueprints' included."""
    registries = (
        app.before_request_funcs,
        app.after_request_funcs,
        app.teardown_request_funcs,
        app.url_value_preprocessors,
    )
    found = {f"{hook.__module__}.{hook.__qualname__}" for hook in app.teardown_appcontext_funcs}
    for registry in registries:
        for hooks in registry.values():
            found.update(f"{hook.__module__}.{hook.__qualname__}" for hook in hooks)
    for signal in SIGNALS:
        if signal.has_receivers_for(app):
            found.add(f"signal {signal.name}")
    return found


def check_hooks(app: Flask) -> None:
    """UndeclaredHook unless every request hook of `app` is one HOOKS declares."""
    undeclared = sorted(app_hooks(app) - HOOKS.keys())
    if undeclared:
        raise UndeclaredHook(
            f"the fast move path neither runs nor may skip {', '.join(undeclared)}: "
            "declare it in api.games.fast_moves.HOOKS (with the step run in its place)"
        )


def _seat_token(environ: dict) -> str | None:
    """The seat token of a request the fast path may answer, None for anything else: no
    or a malformed Authorization (Flask's path answers it), an account key."""
    try:
        token = environ_credentials.bearer_token(environ)
    except Unauthenticated:
        return None
    return None if token is None or auth.is_account_key(token) else token


def enabled(app: Flask) -> bool:
    """FAST_MOVES of the app's config (default: unless KELTIS_FAST_MOVES=off)."""
    return bool(app.config.setdefault("FAST_MOVES", settings.current().fast_moves))


def init_app(app: Flask) -> None:
    """Put the fast path in front of the app's WSGI callable (after every other init)."""
    if enabled(app):
        app.wsgi_app = FastMoves(app, app.wsgi_app)
