"""A move's two requests answered without Flask's request machinery (issue 27, item 3).

`POST /v1/games/{id}/moves` and `GET /v1/games/{id}/moves?version=N` are most of what a
playing client sends. Flask's request context, URL routing, hooks and Response objects cost
them more than their own work: about 200 of the 520 microseconds a move took in one process
(`python -m bench inprocess`). This WSGI middleware answers the usual shape of these two
requests itself, with the same steps as the views (api.games.post_move, get_moves) and as
the app's hooks (api.observe's request id, metrics and log line; api.ratelimit's count;
api.headers' Vary and Cache-Control; api.metrics_endpoint's listener check):

- the usual shape: a seat token (not an account key) as `Authorization: Bearer`, no
  `X-Keltis-Seat`; a POST with a plain JSON body of the usual shape (api.move_body), no
  `If-Match`, a well-formed `Idempotency-Key` if any; a GET whose query is `version=N`
  alone; not in debug mode, not on the metrics listener;
- every other request goes to Flask as it came (a body already read is given back);
- an error (a refused move, a bad token, the rate limit, Redis down) is answered by Flask's
  own error handlers and after-request hooks, in a request context made for it: the one
  JSON error shape, as the views would answer it. The move is never run twice.

`FAST_MOVES` (config; KELTIS_FAST_MOVES=off) turns it off. tests/api/test_fast_moves.py
compares the answers of both paths.
"""

from __future__ import annotations

import io
import os
import re
from http import HTTPStatus

import orjson
from flask import Flask

from api import extensions, metrics_endpoint, observe, prefer, ratelimit
from api.auth import MAX_TOKEN_CHARS
from api.games import IDEMPOTENCY_KEY, move_headers, moves_answer, play_move
from api.json_provider import OPTIONS
from api.move_body import plain_json_length, read_body, usual_command
from application import auth, moves_at

ENV = "KELTIS_FAST_MOVES"
ROUTE = "/v1/games/<game_id>/moves"  # the URL rule, as the metrics and the log name it
# A game id of printable ASCII without "/" (ids are URL-safe base64): decoded alike by WSGI's
# latin-1 and by werkzeug's UTF-8; any other path goes to Flask.
MOVES_PATH = re.compile(r"/v1/games/([!-.0-~]+)/moves")
VERSION_QUERY = re.compile(r"version=([0-9]{1,15})", re.ASCII)
JSON_OPTIONS = OPTIONS | orjson.OPT_APPEND_NEWLINE
STATUS_LINES = {200: "200 OK"}  # the usual one, without the enum's lookup
PER_SEAT_HEADERS = (("Vary", "Authorization"), ("Cache-Control", "private, no-store"))


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

    def __call__(self, environ: dict, start_response):
        match = MOVES_PATH.fullmatch(environ.get("PATH_INFO", ""))
        token = _seat_token(environ) if match is not None else None
        if token is None or self.app.debug or self._on_metrics_listener(environ):
            return self.flask(environ, start_response)
        method = environ.get("REQUEST_METHOD")
        if method == "GET":
            query = VERSION_QUERY.fullmatch(environ.get("QUERY_STRING", ""))
            if query is None:
                return self.flask(environ, start_response)
            observe.begin(environ)
            try:
                self._count(environ)
                answer = self._moves(match.group(1), token, int(query.group(1)))
            except Exception as error:
                return self._error(environ, start_response, error)
            return self._answer(environ, start_response, method, answer)
        size = plain_json_length(environ, self.max_length) if method == "POST" else None
        key = environ.get("HTTP_IDEMPOTENCY_KEY")
        if size is None or "HTTP_IF_MATCH" in environ:
            return self.flask(environ, start_response)
        if key is not None and not IDEMPOTENCY_KEY.match(key):
            return self.flask(environ, start_response)
        observe.begin(environ)
        try:
            self._count(environ)
            raw = read_body(environ, size)
            command = usual_command(raw)
            if command is None:  # a body for the schema: Flask's path reads it again
                environ["wsgi.input"] = io.BytesIO(raw)
                return self.flask(environ, start_response)
            answer = self._play(environ, match.group(1), token, command, key)
        except Exception as error:
            return self._error(environ, start_response, error)
        return self._answer(environ, start_response, method, answer)

    def _on_metrics_listener(self, environ: dict) -> bool:
        return bool(self.metrics_bind) and metrics_endpoint.came_on(environ, self.metrics_bind)

    def _count(self, environ: dict) -> None:
        """api.ratelimit's count (RateLimited when over; then not counted)."""
        if self.rate_limit is not None:
            self.rate_limit.hit(environ.get("REMOTE_ADDR") or ratelimit.LOCAL_ADDRESS)
            environ[ratelimit.COUNTED] = True

    def _moves(self, game_id: str, token: str, version: int) -> tuple[int, dict, list]:
        """api.games.get_moves with a `version` query."""
        record, seat = moves_at.seat_at(self.games, game_id, token, None, version)
        return 200, moves_answer(record, seat), []

    def _play(
        self, environ: dict, game_id: str, token: str, command: dict, key: str | None
    ) -> tuple[int, dict, list]:
        """api.games.post_move without If-Match or X-Keltis-Seat."""
        expected = command.pop("expected_version", None)
        minimal = prefer.minimal_in(environ)
        answer = play_move(self.games, game_id, token, command, expected, key, minimal)
        return answer.status, answer.body, move_headers(answer, minimal)

    def _answer(self, environ: dict, start_response, method: str, answer: tuple):
        """The JSON answer with the headers the views and the hooks give it."""
        status, body, view_headers = answer
        raw = orjson.dumps(body, default=self.app.json.default, option=JSON_OPTIONS)
        headers = [("Content-Type", "application/json"), ("Content-Length", str(len(raw)))]
        headers += view_headers
        headers += PER_SEAT_HEADERS
        request_id = observe.record_answer(
            environ, self.sink, ROUTE, method, environ["PATH_INFO"], status
        )
        headers.append((observe.REQUEST_ID_HEADER, request_id))
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


def _seat_token(environ: dict) -> str | None:
    """The seat token of a request the fast path may answer (api.auth.bearer_token's
    reading), None for anything else: no or another Authorization, an account key, a seat
    named by X-Keltis-Seat."""
    header = environ.get("HTTP_AUTHORIZATION")
    if header is None or "HTTP_X_KELTIS_SEAT" in environ:
        return None
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > MAX_TOKEN_CHARS:
        return None
    return None if auth.is_account_key(token) else token


def enabled(app: Flask) -> bool:
    """FAST_MOVES of the app's config (default: unless KELTIS_FAST_MOVES=off)."""
    setting = os.environ.get(ENV, "").strip().lower()
    return bool(app.config.setdefault("FAST_MOVES", setting != "off"))


def init_app(app: Flask) -> None:
    """Put the fast path in front of the app's WSGI callable (after every other init)."""
    if enabled(app):
        app.wsgi_app = FastMoves(app, app.wsgi_app)
