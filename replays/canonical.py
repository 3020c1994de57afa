"""Canonical JSON: the byte form the replay chain is computed over."""

from __future__ import annotations

import json


def canonical_json(value) -> bytes:
    """Sorted keys, no spaces, UTF-8 (`ensure_ascii=False`): one byte string per value."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


def json_ready(value):
    """`value` as it reads back from JSON (tuples become lists, int keys become strings)."""
    return json.loads(json.dumps(value))
