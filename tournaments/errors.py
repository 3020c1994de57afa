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


class DealSealed(KeltisError):
    """A game of a duplicate deal is sealed until every game of its deal is over (its
    play would reveal the cards of the deal's other games)."""

    code = "deal_sealed"
    kind = Kind.FORBIDDEN


class TournamentOver(KeltisError):
    """The tournament is finished or cancelled already."""

    code = "tournament_over"
    kind = Kind.CONFLICT


class NotOrganiser(KeltisError):
    """Only the organiser (the token given at creation) may do this."""

    code = "not_organiser"
    kind = Kind.FORBIDDEN


class PersonNotEntrant(KeltisError):
    """An account entry names a person's account: only bot accounts enter tournaments."""

    code = "not_a_bot_account"
    kind = Kind.FORBIDDEN


class NotInvited(KeltisError):
    """The account is not among the tournament's entries: only invited accounts enter."""

    code = "not_invited"
    kind = Kind.FORBIDDEN
