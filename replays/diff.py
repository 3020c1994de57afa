"""Describe the first difference between two JSON-ready values, for people."""

from __future__ import annotations

from replays.shown import quote

_MISSING = object()


def first_difference(expected, actual, path: str = "") -> str | None:
    """`None` when equal, else "at <path>: expected X, found Y" for the first differing spot."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual), key=str):
            found = first_difference(
                expected.get(key, _MISSING), actual.get(key, _MISSING), f"{path}.{key}"
            )
            if found:
                return found
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        for index in range(max(len(expected), len(actual))):
            left = expected[index] if index < len(expected) else _MISSING
            right = actual[index] if index < len(actual) else _MISSING
            found = first_difference(left, right, f"{path}[{index}]")
            if found:
                return found
        return None
    if expected == actual and type(expected) is type(actual):
        return None
    return (
        f"at {path.lstrip('.') or 'top level'}: expected {_show(expected)}, found {_show(actual)}"
    )


def _show(value) -> str:
    return "nothing" if value is _MISSING else quote(value)
