"""Values as Redis returns them (bytes or str, by the client's settings)."""

from __future__ import annotations


def text(value: bytes | str) -> str:
    """A reply as str."""
    return value.decode() if isinstance(value, bytes) else value


def text_fields(raw: dict) -> dict[str, str]:
    """A hash's reply (HGETALL) with its fields and values as str."""
    return {text(k): text(v) for k, v in raw.items()}
