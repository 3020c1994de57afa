"""Errors of the application service (the domain's own errors live in domain.errors)."""

from __future__ import annotations


class ServiceError(Exception):
    """Base of the service's errors; `code` is stable and machine-readable."""

    code = "service_error"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class GameNotFound(ServiceError):
    code = "game_not_found"


class UnknownGame(ServiceError):
    """The named game (rules) does not exist."""

    code = "unknown_game"


class InvalidPlayers(ServiceError):
    code = "invalid_players"


class Unauthenticated(ServiceError):
    code = "unauthenticated"


class WrongGameToken(ServiceError):
    code = "token_of_another_game"


class SeatUnavailable(ServiceError):
    code = "seat_taken"


class NoSuchSeat(ServiceError):
    code = "no_such_seat"


class GameNotStarted(ServiceError):
    code = "game_not_started"


class CorruptLog(ServiceError):
    """A stored log that is not a game's log (it does not open with `game_created`)."""

    code = "corrupt_log"


class VersionConflict(ServiceError):
    """The game moved on since the version the caller expected."""

    code = "version_conflict"

    def __init__(self, message: str, current_version: int):
        super().__init__(message)
        self.current_version = current_version


class IdempotencyKeyReused(ServiceError):
    """The same Idempotency-Key came back with a different request."""

    code = "idempotency_key_reused"
