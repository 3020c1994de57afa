"""The body of POST /v1/games/{id}/moves, read and checked without the general machinery
when it has the usual shape (a move's hot path; its steps are api.games.move_steps').

`move_command` answers exactly what `api.core.bodies.json_body(MoveSchema)` answers: the same
command, and for anything unusual the same errors, since anything unusual goes through
`json_body` itself. The usual shape is a body declared as exactly `application/json` with
a plain Content-Length within the limit, holding a JSON object whose `action` is a string
of 1 to 40 characters, whose `expected_version` (if any) is a JSON integer in range, and
without a lone surrogate anywhere. For it the general path's costly steps are skipped:
parsing the Content-Type header, werkzeug's stream wrappers, marshmallow's load (its
result is the object as it is: `MoveSchema` keeps unknown fields).
"""

from __future__ import annotations

from flask import current_app, request

from api.core import schemas
from api.core.bodies import json_body, parse_json
from api.core.errors import ApiError
from api.games import move_steps


def move_command() -> dict:
    """The command of a POST /moves body (MoveSchema's load)."""
    schema = schemas.use(schemas.MoveSchema)
    raw = _plain_json_body()
    if raw is None:
        return json_body(schema)
    data = parse_json(raw) if raw else None
    if not isinstance(data, dict):
        raise ApiError(422, "invalid_request", "the body must be a JSON object")
    if not move_steps.usual(data):
        return schema.load(data)
    return data


def _plain_json_body() -> bytes | None:
    """The body when it is declared exactly `application/json` with a plain Content-Length
    within MAX_CONTENT_LENGTH; None for any other request (the general path reads it)."""
    return move_steps.plain_json_body(request.environ, current_app.config["MAX_CONTENT_LENGTH"])
