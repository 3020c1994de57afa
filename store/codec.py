"""Values as Redis returns them (bytes or str, by the client's settings)."""

from __future__ import annotations


def text(value: bytes | str) -> str:
    """A reply as str."""
    return value.decode() if isinstance(value, bytes) else value
