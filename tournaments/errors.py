"""Named errors of tournaments."""

from __future__ import annotations

from domain.errors import KeltisError, Kind


class InvalidTournament(KeltisError):
    """A tournament request names an unknown game or bot, or a bad number of seats/games."""

    code = "invalid_tournament"


class TournamentNotFound(KeltisError):
    code = "tournament_not_found"
    kind = Kind.NOT_FOUND


class TournamentRunning(KeltisError):
    """The tournament still has unfinished games (its archive cannot be built yet)."""

    code = "tournament_running"
    kind = Kind.CONFLICT


class ArchiveNotReady(KeltisError):
    """The replay archive was not requested yet, or is still being built."""

    code = "archive_not_ready"
    kind = Kind.CONFLICT
