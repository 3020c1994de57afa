"""The body of POST /v1/games/{id}/moves, read and checked without the general machinery
when it has the usual shape (a move's hot path, issue 27).

`move_command` answers exactly what `api.bodies.json_body(MoveSchema)` answers: the same
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
from werkzeug.exceptions import ClientDisconnected

from api import schemas
from api.bodies import JSON_TYPE, json_body, parse_json
from api.errors import ApiError
from api.schemas import has_lone_surrogate

MAX_ACTION_CHARS = 40  # MoveSchema.action
MAX_LENGTH_DIGITS = 9  # a longer Content-Length is over any limit: the general path says so


def move_command() -> dict:
    """The command of a POST /moves body (MoveSchema's load)."""
    schema = schemas.use(schemas.MoveSchema)
    raw = _plain_json_body()
    if raw is None:
        return json_body(schema)
    data = parse_json(raw) if raw else None
    if not isinstance(data, dict):
        raise ApiError(422, "invalid_request", "the body must be a JSON object")
    if not _usual(data):
        return schema.load(data)
    return data


def _plain_json_body() -> bytes | None:
    """The body when it is declared exactly `application/json` with a plain Content-Length
    within MAX_CONTENT_LENGTH; None for any other request (the general path reads it)."""
    return plain_json_body(request.environ, current_app.config["MAX_CONTENT_LENGTH"])


def plain_json_body(environ: dict, max_length: int) -> bytes | None:
    """`_plain_json_body` of a WSGI environ, read only when it has that shape."""
    size = plain_json_length(environ, max_length)
    return None if size is None else read_body(environ, size)


def read_body(environ: dict, size: int) -> bytes:
    """The `size` bytes of a request's body (`_read`)."""
    return _read(environ["wsgi.input"], size, "wsgi.input_terminated" in environ)


def plain_json_length(environ: dict, max_length: int) -> int | None:
    """The Content-Length of a body of the usual shape (None: any other body)."""
    if environ.get("CONTENT_TYPE") != JSON_TYPE or "HTTP_TRANSFER_ENCODING" in environ:
        return None
    length = environ.get("CONTENT_LENGTH")
    if not length or len(length) > MAX_LENGTH_DIGITS:
        return None
    if not length.isascii() or not length.isdigit():
        return None
    size = int(length)
    return size if size <= max_length else None


def usual_command(raw: bytes) -> dict | None:
    """The command of a plain JSON body read by `plain_json_body` when MoveSchema would
    load it as it is; None when it needs the schema; ApiError when it is not JSON."""
    data = parse_json(raw) if raw else None
    return data if isinstance(data, dict) and _usual(data) else None


def _read(stream, size: int, terminated: bool) -> bytes:
    """`size` bytes of `stream`, as werkzeug reads them: a server that terminates the input
    may give fewer (the JSON then fails to parse); otherwise fewer means the client went
    away (400, werkzeug's ClientDisconnected)."""
    chunks, got = [], 0
    while got < size:
        chunk = stream.read(size - got)
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    if got < size and not terminated:
        raise ClientDisconnected()
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def _usual(data: dict) -> bool:
    """Whether MoveSchema would load `data` as it is, without an error."""
    action = data.get("action")
    if type(action) is not str or not 1 <= len(action) <= MAX_ACTION_CHARS:
        return False
    if "expected_version" in data:
        version = data["expected_version"]
        if type(version) is not int or not 0 <= version <= schemas.MAX_INDEX:
            return False
    return _plain_text(data)


def _plain_text(value: object) -> bool:
    """No lone surrogate in any string or key of a parsed JSON value (MoveSchema's pre_load
    check); nesting is bounded by the parser's recursion limit."""
    if isinstance(value, str):
        return not has_lone_surrogate(value)
    if isinstance(value, dict):
        return all(not has_lone_surrogate(key) and _plain_text(item) for key, item in value.items())
    if isinstance(value, list):
        return all(_plain_text(item) for item in value)
    return True
