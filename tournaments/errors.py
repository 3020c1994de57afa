"""Named errors of tournaments."""

from __future__ import annotations

from store.errors import ServiceError


class InvalidTournament(ServiceError):
    """A tournament request names an unknown game or bot, or a bad number of seats/games."""

    code = "invalid_tournament"


class TournamentNotFound(ServiceError):
    code = "tournament_not_found"


class TournamentRunning(ServiceError):
    """The tournament still has unfinished games (its archive cannot be built yet)."""

    code = "tournament_running"


class ArchiveNotReady(ServiceError):
    """The replay archive was not requested yet, or is still being built."""

    code = "archive_not_ready"
