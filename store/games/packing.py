"""The compacted log of a finished game: one compressed, versioned blob.

Layout: `KLP1:<version>:` (ASCII, so a Lua script reads the version with GETRANGE), then
zlib of the token hashes as JSON, a newline, and the stored entries exactly as appended,
one a line (compact JSON never holds a raw newline). Unpacking gives back every entry byte
for byte, so everything read from a compacted game is what its live log gave.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import orjson

from gamelog.errors import CorruptLog

MAGIC = b"KLP1"
HEAD_BYTES = 32  # enough for the magic and any version number
LEVEL = 9


@dataclass(frozen=True, slots=True)
class Packed:
    """A compacted log: its version, its entries as stored, its seats' token hashes."""

    version: int
    entries: list[bytes]
    token_hashes: dict[int, str]


def pack(entries: list[bytes], token_hashes: dict[int, str]) -> bytes:
    """The blob of a log (its entries as stored) and its token hashes."""
    hashes = orjson.dumps({str(seat): digest for seat, digest in token_hashes.items()})
    body = b"\n".join([hashes, *entries])
    return MAGIC + b":%d:" % len(entries) + zlib.compress(body, LEVEL)


def version_of(head: bytes | None) -> int | None:
    """The version in a blob's first bytes (None: no blob)."""
    if not head:
        return None
    return _split(head)[1]


def unpack(blob: bytes) -> Packed:
    """A blob's log; CorruptLog when it is no blob of a known format."""
    _, version, offset = _split(blob)
    try:
        hashes, *entries = zlib.decompress(blob[offset:]).split(b"\n")
        token_hashes = {int(seat): digest for seat, digest in orjson.loads(hashes).items()}
    except (zlib.error, ValueError) as error:
        raise CorruptLog(f"the compacted log is unreadable: {error}") from error
    if len(entries) != version:
        raise CorruptLog("the compacted log does not hold its version's entries")
    return Packed(version, entries, token_hashes)


def _split(blob: bytes) -> tuple[bytes, int, int]:
    parts = bytes(blob[:HEAD_BYTES]).split(b":", 2)
    if len(parts) < 3 or parts[0] != MAGIC or not parts[1].isdigit():
        raise CorruptLog("the compacted log has an unknown format")
    return parts[0], int(parts[1]), len(parts[0]) + len(parts[1]) + 2
