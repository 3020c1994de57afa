"""Strict JSON of request bodies, Flask-free: no duplicate keys, no NaN or Infinity,
bounded nesting."""

from __future__ import annotations

import json

from api.core.api_error import ApiError

JSON_TYPE = "application/json"


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
