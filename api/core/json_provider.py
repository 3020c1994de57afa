"""Flask's JSON provider on orjson: the same JSON, encoded several times faster.

Responses are compact UTF-8 JSON followed by a newline, keys in insertion order (as with
`sort_keys=False`). Non-string keys become strings, as `json.dumps` makes them; types
orjson does not know go through Flask's own `default` (dates, Markup...). Parsing a request
body is not done here but by api.core.bodies (strict: duplicate keys, NaN).
"""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response, current_app
from flask.json.provider import DefaultJSONProvider

WRITE_OPTIONS = orjson.OPT_NON_STR_KEYS  # every JSON answer of the app
OPTIONS = WRITE_OPTIONS  # the name api.games.time_travel writes with
JSON_OPTIONS = WRITE_OPTIONS | orjson.OPT_APPEND_NEWLINE


def json_body(obj, default) -> bytes:
    """An answer's JSON body, as every JSON answer of the app is written (the fast path's
    too, api.games.move_steps)."""
    return orjson.dumps(obj, default=default, option=JSON_OPTIONS)


class OrjsonProvider(DefaultJSONProvider):
    """`dumps` and `response` through orjson; `loads` as Flask's default."""

    sort_keys = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs.keys() - {"separators"}:  # indent, sort_keys...: the standard library's
            return super().dumps(obj, **kwargs)
        return orjson.dumps(obj, default=self.default, option=OPTIONS).decode()

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        if self._app.debug and self.compact is not False:
            return super().response(obj)
        return self._app.response_class(json_body(obj, self.default), mimetype=self.mimetype)


def json_response(obj: Any, status: int, headers: list[tuple[str, str]]) -> Response:
    """`jsonify(obj)` with its status and headers given at once (a move's answer): the
    same body and headers, without setting each header afterwards (each a scan of the
    headers). In debug mode, jsonify's own indented output."""
    app = current_app._get_current_object()
    if app.debug:
        response = app.json.response(obj)
        response.status_code = status
        response.headers.extend(headers)
        return response
    body = json_body(obj, app.json.default)
    return app.response_class(body, status, headers, mimetype=app.json.mimetype)
