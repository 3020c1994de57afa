"""The bounds every decoded replay keeps (FORMAT.md, "Limits"), checked without recursion.

JSON allows what the tools cannot handle safely: nesting deep enough to exhaust the stack,
integers too long to print, NaN and infinities, lone surrogates that no UTF-8 text can hold.
"""

from __future__ import annotations

import math
import re

from replays.errors import MalformedReplay
from replays.shown import quote

MAX_DEPTH = 64  # nested arrays/objects; a real replay needs 6
MAX_INTEGER = 2**53 - 1  # the largest integer every JSON reader keeps exactly
_SURROGATE = re.compile("[\ud800-\udfff]")
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,23}\Z")
_PATH_PARTS = 8


def check_bounds(value) -> None:
    """Raise MalformedReplay naming the first place where `value` leaves the bounds."""
    if not isinstance(value, dict | list):
        _check_scalar(value, [])
        return
    keys: list = []
    stack = [_items(value)]
    while stack:
        for key, item in stack[-1]:
            kind = type(item)
            if kind is dict or kind is list:
                if len(stack) >= MAX_DEPTH:
                    raise MalformedReplay(
                        f"nested more than {MAX_DEPTH} levels deep at {path_text([*keys, key])}"
                    )
                keys.append(key)
                stack.append(_items(item))
                break
            if kind is int:
                if -MAX_INTEGER <= item <= MAX_INTEGER:
                    continue
            elif kind is str:
                if not _SURROGATE.search(item):
                    continue
            elif item is None or kind is bool:
                continue
            _check_scalar(item, [*keys, key])
        else:
            stack.pop()
            if keys:
                keys.pop()


def _items(container):
    if isinstance(container, list):
        return enumerate(container)
    for key in container:
        if not isinstance(key, str):
            raise MalformedReplay(f"an object key is not text: {quote(key)}")
        if _SURROGATE.search(key):
            raise MalformedReplay(f"an object key holds a lone surrogate: {quote(key)}")
    return iter(container.items())


def _check_scalar(value, keys: list) -> None:
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, int):
        if abs(value) > MAX_INTEGER:
            raise MalformedReplay(
                f"the integer at {path_text(keys)} is larger than 2**53 - 1 in size: {quote(value)}"
            )
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise MalformedReplay(f"the number at {path_text(keys)} is not finite")
    elif isinstance(value, str):
        if _SURROGATE.search(value):
            raise MalformedReplay(f"the text at {path_text(keys)} holds a lone surrogate")
    elif not isinstance(value, dict | list):
        raise MalformedReplay(f"the value at {path_text(keys)} is not JSON: {quote(value)}")


def path_text(keys: list) -> str:
    """`$.entries[3].e.type` for a list of keys; long paths keep their ends."""
    parts = [_part(key) for key in keys]
    if len(parts) > _PATH_PARTS:
        parts = [*parts[:3], ".…", *parts[-(_PATH_PARTS - 3) :]]
    return "$" + "".join(parts)


def _part(key) -> str:
    if isinstance(key, int):
        return f"[{key}]"
    if isinstance(key, str) and _PLAIN_KEY.match(key):
        return f".{key}"
    return f"[{quote(key, 24)}]"
