"""Errors of reading a stored log."""

from __future__ import annotations

from domain.errors import KeltisError, Kind


class CorruptLog(KeltisError):
    """A stored log that is not a game's log (it does not open with `game_created`)."""

    code = "corrupt_log"
    kind = Kind.CORRUPT


class UnreadableEntry(CorruptLog):
    """A log entry written in a format this code does not know."""

    code = "unreadable_entry"
