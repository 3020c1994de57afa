"""A snapshot of a game: its record at one version as compact JSON, so a process that has
never seen a long game folds only the entries after it.

A snapshot is derived data (the log is the truth): it names its own format, the rules'
state format and the version it stands at, and carries a digest of the log's entry at that
version. A reader that finds any of them different ignores it and folds the log.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, replace

import orjson

from gamelog.record import GameRecord

FORMAT = 1
EVERY = 16  # a snapshot is written with the batch that crosses a multiple of EVERY


@dataclass(frozen=True, slots=True)
class StoredSnapshot:
    """A decoded snapshot: the record and the digest of the log's entry at its version."""

    record: GameRecord
    entry_digest: int

    def matches(self, raw_entry: bytes) -> bool:
        """Whether `raw_entry` (the log's entry at the snapshot's version) is the one the
        snapshot was made after."""
        return zlib.crc32(raw_entry) == self.entry_digest


def due(before_version: int, after: GameRecord) -> bool:
    """Whether the batch from `before_version` to `after` writes a snapshot: it crosses a
    multiple of EVERY, and the game's rules can give their state as data (a game whose
    rules cannot is always folded from its log)."""
    crossed = after.version // EVERY > before_version // EVERY
    return crossed and hasattr(after.rules, "state_to_data")


def encode(record: GameRecord, last_raw_entry: bytes) -> bytes:
    """The snapshot of `record`, made after the log entry `last_raw_entry` (its last)."""
    rules = record.rules
    data = {
        "f": FORMAT,
        "sf": rules.state_format,
        "crc": zlib.crc32(last_raw_entry),
        "game_id": record.game_id,
        "game": record.game,
        "options": record.options,
        "players": record.players,
        "seed_hex": record.seed_hex,
        "created_at": record.created_at,
        "invites": {str(seat): digest for seat, digest in record.invites.items()},
        "version": record.version,
        "updated_at": record.updated_at,
        "state": None if record.state is None else rules.state_to_data(record.state),
        "expired": record.expired,
        "clock": record.clock,
        "timeouts": record.timeouts,
        "bank_ms": record.bank_ms,
        "forfeited": sorted(record.forfeited),
        "fallback_seats": sorted(record.fallback_seats),
        "fallback_bot": record.fallback_bot,
        "ended_early": record.ended_early,
        "rated": record.rated,
        "tournament": record.tournament,
        "allow_same_account": record.allow_same_account,
        "aborts": record.aborts,
        "moved": sorted(record.moved),
        "covering": record.covering,
    }
    return orjson.dumps(data)


def decode(blob: bytes | None) -> StoredSnapshot | None:
    """The snapshot in `blob`; None when there is none or it is of another format (or of
    another state format of its game's rules) or unreadable."""
    if not blob:
        return None
    try:
        data = orjson.loads(blob)
        if data.get("f") != FORMAT:
            return None
        record = GameRecord(
            game_id=data["game_id"],
            game=data["game"],
            options=data["options"],
            players=tuple(data["players"]),
            seed_hex=data["seed_hex"],
            created_at=data["created_at"],
            invites={int(seat): digest for seat, digest in data["invites"].items()},
            version=data["version"],
            updated_at=data["updated_at"],
            expired=data["expired"],
            clock=data["clock"],
            timeouts=tuple(data["timeouts"]),
            bank_ms=tuple(data["bank_ms"]),
            forfeited=frozenset(data["forfeited"]),
            fallback_seats=frozenset(data.get("fallback_seats", ())),
            fallback_bot=data.get("fallback_bot"),
            ended_early=data["ended_early"],
            rated=data["rated"],
            tournament=data["tournament"],
            allow_same_account=bool(data.get("allow_same_account")),
            aborts=bool(data.get("aborts")),
            moved=frozenset(data["moved"]),  # an older snapshot has none: the log is folded
            covering=data["covering"],
        )
        rules = record.rules
        if data["sf"] != rules.state_format:
            return None
        if data["state"] is not None:
            record = replace(record, state=rules.state_from_data(data["state"]))
        return StoredSnapshot(record, data["crc"])
    except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
        return None
