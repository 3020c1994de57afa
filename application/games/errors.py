"""Errors of games (application.games): a game, version or seat that is not there, a command the
game cannot take now, a seating the rules of the service refuse."""

from __future__ import annotations

from domain.errors import KeltisError, Kind


class GameNotFound(KeltisError):
    code = "game_not_found"
    kind = Kind.NOT_FOUND


class VersionNotFound(KeltisError):
    """A version the game never had (time travel past its newest version)."""

    code = "version_not_found"
    kind = Kind.NOT_FOUND


class NoSuchSeat(KeltisError):
    code = "no_such_seat"
    kind = Kind.NOT_FOUND


class InvalidPlayers(KeltisError):
    code = "invalid_players"


class IdempotencyKeyReused(KeltisError):
    """The same Idempotency-Key came back with a different request."""

    code = "idempotency_key_reused"


class InviteRequired(KeltisError):
    """The seat was opened with an invite and the join code is missing or wrong."""

    code = "invite_required"
    kind = Kind.FORBIDDEN


class SeatUnavailable(KeltisError):
    code = "seat_taken"
    kind = Kind.CONFLICT


class GameExpired(KeltisError):
    """The game waited too long for its open seats and expired."""

    code = "game_expired"
    kind = Kind.CONFLICT


class GameNotStarted(KeltisError):
    code = "game_not_started"
    kind = Kind.CONFLICT


class VersionConflict(KeltisError):
    """The game moved on since the version the caller expected."""

    code = "version_conflict"
    kind = Kind.CONFLICT

    def __init__(self, message: str, current_version: int):
        super().__init__(message)
        self.current_version = current_version

    @classmethod
    def stale(cls, expected_version: int, current_version: int) -> VersionConflict:
        """The conflict of an `expected_version` that is not the game's: its message says
        the current version and which way the expected one is off."""
        if expected_version > current_version:
            message = (
                f"expected_version {expected_version} is ahead of the game, "
                f"which is at version {current_version}"
            )
        else:
            message = f"the game has moved on to version {current_version}"
        return cls(message, current_version)


class SeatNeedsConsent(KeltisError):
    """An account (a person's or a bot's) is seated only with its own consent: its key, an
    accepted challenge, its seek, its arena entry (403)."""

    code = "seat_needs_consent"
    kind = Kind.FORBIDDEN


class RatedNeedsAccount(KeltisError):
    """A rated game created over the API seats the creator's own account or an open seat
    (joined with an account key): built-in bots alone are not rated (422)."""

    code = "rated_needs_account"


class InvalidClock(KeltisError):
    """The turn clock asks for something the game cannot do (an unknown fallback bot)."""

    code = "invalid_clock"


class SeatForfeited(KeltisError):
    """The seat forfeited (timeouts or resignation): its fallback bot plays for it."""

    code = "seat_forfeited"
    kind = Kind.CONFLICT


class GameAlreadyOver(KeltisError):
    """The game is over: it takes no more commands."""

    code = "game_over"
    kind = Kind.CONFLICT


class UnratedSeat(KeltisError):
    """A rated game seats only accounts and built-in bots: a seat played with a per-game
    token (a plain name) has no one the ladder could rate."""

    code = "unrated_seat"
