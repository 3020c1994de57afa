"""The format of one log entry (see docs/DESIGN.md, "The log of one game").

An entry is compact JSON: `v` format version, `n` version number, `at` server time (ms),
`by` acting seat (None for the service), `cmd` the command (first entry of a batch only),
`e` the event. Readers accept every format version listed in `READABLE_FORMATS`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from gamelog.errors import UnreadableEntry

FORMAT_VERSION = 1
READABLE_FORMATS = frozenset({1})


@dataclass(frozen=True, slots=True)
class Entry:
    """One decoded log entry."""

    n: int
    at: int
    by: int | None
    event: dict
    cmd: dict | None = None


def make_batch(
    first_version: int, events: list[dict], at: int, by: int | None, cmd: dict | None
) -> list[Entry]:
    """The entries of one batch; only the first carries the command."""
    return [
        Entry(n=first_version + i, at=at, by=by, event=event, cmd=cmd if i == 0 else None)
        for i, event in enumerate(events)
    ]


def to_dict(entry: Entry) -> dict[str, Any]:
    """The stored shape of an entry: `{"v", "n", "at", "by", "cmd"?, "e"}`."""
    data: dict[str, Any] = {"v": FORMAT_VERSION, "n": entry.n, "at": entry.at, "by": entry.by}
    if entry.cmd is not None:
        data["cmd"] = entry.cmd
    data["e"] = entry.event
    return data


def encode(entry: Entry) -> bytes:
    """Compact JSON (UTF-8) of an entry; non-string keys become strings, as in `json`."""
    return orjson.dumps(to_dict(entry), option=orjson.OPT_NON_STR_KEYS)


def decode(raw: bytes | str) -> Entry:
    """An entry from its stored JSON; UnreadableEntry for an unknown format version."""
    data = orjson.loads(raw)
    if data.get("v") not in READABLE_FORMATS:
        raise UnreadableEntry(f"log entry format {data.get('v')!r} is not readable")
    return Entry(n=data["n"], at=data["at"], by=data["by"], event=data["e"], cmd=data.get("cmd"))
