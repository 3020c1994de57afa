"""Reading request bodies and queries through their schemas."""

from __future__ import annotations

from flask import current_app, g, request
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import RequestEntityTooLarge

from api.core.errors import DRAIN_LIMIT_BYTES, ApiError, describe, describe_name
from api.core.strict_json import JSON_TYPE, parse_json

READ_BYTES = 64 * 1024


def raw_body() -> bytes:
    """The request body; 413 when it exceeds MAX_CONTENT_LENGTH, however it is framed.

    With a Content-Length werkzeug refuses an oversized body before reading it. A body
    without one (`Transfer-Encoding: chunked`) is read here up to one byte past the limit,
    since werkzeug's own limit on such a stream silently cuts it at the limit.
    """
    if "raw_body" in g:
        return g.raw_body
    if request.content_length is not None or not request.environ.get("wsgi.input_terminated"):
        g.raw_body = request.get_data(cache=True)
        return g.raw_body
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    stream = request.environ["wsgi.input"]
    chunks, size = [], 0
    while size <= limit:
        chunk = stream.read(min(READ_BYTES, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    if size > limit:
        _drain(stream)
        raise RequestEntityTooLarge()
    g.raw_body = b"".join(chunks)
    return g.raw_body


def _drain(stream) -> None:
    """Read (and drop) up to DRAIN_LIMIT_BYTES more, so the client can read the 413."""
    drained = 0
    while drained < DRAIN_LIMIT_BYTES:
        chunk = stream.read(READ_BYTES)
        if not chunk:
            return
        drained += len(chunk)


def json_body(schema: Schema) -> dict:
    """The request's JSON object loaded by `schema`.

    415 unless the body is declared `application/json` (a cross-site form cannot send that
    without a CORS preflight), 413 too large, 400 malformed, 422 wrong shape.
    """
    if request.mimetype != JSON_TYPE:
        raise ApiError(415, "unsupported_media_type", f"the body must be {JSON_TYPE}")
    raw = raw_body()
    data = parse_json(raw) if raw else None
    if not isinstance(data, dict):
        raise ApiError(422, "invalid_request", "the body must be a JSON object")
    return schema.load(data)


def query(schema: Schema) -> dict:
    """The query string loaded by `schema`.

    400 invalid_query for a parameter given more than once (every parameter of the API is
    one value: taking the first or the last would answer a question the client did not
    ask), an unknown one, a missing one, or one not of its type, range or form.
    """
    args = request.args
    repeated = sorted(name for name in args if len(args.getlist(name)) > 1)
    if repeated:
        raise ApiError(400, "invalid_query", f"{describe_name(repeated[0])}: given more than once")
    try:
        return schema.load(args.to_dict())
    except ValidationError as error:
        raise ApiError(400, "invalid_query", describe(error.messages)) from error
