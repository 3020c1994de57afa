"""Named errors of the replay tools."""

from __future__ import annotations

from domain.errors import KeltisError, Kind


class ReplayError(Exception):
    """Base of every replay error; `message` is meant for people."""

    def __init__(self, message: str, n: int | None = None):
        super().__init__(message)
        self.message = message
        self.n = n


class GameNotFinished(ReplayError, KeltisError):
    """A replay was asked for a game that is not over (R2: it would leak hidden information)."""

    code = "game_not_finished"
    kind = Kind.CONFLICT

    def __init__(self, message: str = "only a finished game has a replay (R2)"):
        super().__init__(message)
        self.rule = "R2"


class MalformedLog(ReplayError):
    """The stored log entries do not have the shape of docs/DESIGN.md."""


class MalformedReplay(ReplayError):
    """A replay file is not JSON, not this format, or misses a required key."""
