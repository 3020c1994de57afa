"""Reading request bodies and queries through their schemas."""

from __future__ import annotations

import json

from flask import request
from marshmallow import Schema

from api.errors import ApiError


def json_body(schema: Schema) -> dict:
    """The request's JSON object loaded by `schema` (400 malformed, 422 wrong shape)."""
    raw = request.get_data(cache=True)
    try:
        data = json.loads(raw) if raw else None
    except (ValueError, UnicodeDecodeError) as error:
        raise ApiError(400, "malformed_json", "the body is not valid JSON") from error
    if not isinstance(data, dict):
        raise ApiError(422, "invalid_request", "the body must be a JSON object")
    return schema.load(data)


def query(schema: Schema) -> dict:
    """The query string loaded by `schema` (422 on a bad or unknown parameter)."""
    return schema.load(request.args.to_dict())
