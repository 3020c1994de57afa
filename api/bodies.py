"""Reading request bodies and queries through their schemas."""

from __future__ import annotations

import json

from flask import request
from marshmallow import Schema

from api.errors import ApiError


class _Refused(ValueError):
    """JSON that parses but that the service does not accept (a duplicate key, NaN...)."""


def _unique_keys(pairs: list[tuple[str, object]]) -> dict:
    data = dict(pairs)
    if len(data) != len(pairs):
        raise _Refused("an object has a duplicate key")
    return data


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _Refused("numbers must be finite")
    return value


def _no_constant(name: str):
    raise _Refused(f"{name} is not JSON")


def parse_json(raw: bytes) -> object:
    """Strict JSON: no duplicate keys, no NaN/Infinity, bounded nesting (400 otherwise)."""
    try:
        return json.loads(
            raw,
            object_pairs_hook=_unique_keys,
            parse_float=_finite,
            parse_constant=_no_constant,
        )
    except _Refused as error:
        raise ApiError(400, "malformed_json", f"the body is not accepted: {error}") from error
    except (ValueError, UnicodeDecodeError, RecursionError) as error:
        raise ApiError(400, "malformed_json", "the body is not valid JSON") from error


def json_body(schema: Schema) -> dict:
    """The request's JSON object loaded by `schema` (400 malformed, 422 wrong shape)."""
    raw = request.get_data(cache=True)
    data = parse_json(raw) if raw else None
    if not isinstance(data, dict):
        raise ApiError(422, "invalid_request", "the body must be a JSON object")
    return schema.load(data)


def query(schema: Schema) -> dict:
    """The query string loaded by `schema` (422 on a bad or unknown parameter)."""
    return schema.load(request.args.to_dict())
