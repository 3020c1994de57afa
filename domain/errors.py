"""Errors by kind, and the named rule violations of the games (see docs/RULES.md).

Every error the service raises on purpose derives from `KeltisError` and says which `Kind`
of failure it is; the HTTP layer maps each kind to one status (api/core/errors.py). A domain
error also names the rule it enforces (`rule`).
"""

from __future__ import annotations

from enum import StrEnum


class Kind(StrEnum):
    """What went wrong, independent of the transport."""

    NOT_FOUND = "not_found"
    CONFLICT = "conflict"
    INVALID = "invalid"
    UNAUTHENTICATED = "unauthenticated"
    FORBIDDEN = "forbidden"
    RATE_LIMITED = "rate_limited"
    UNAVAILABLE = "unavailable"
    CORRUPT = "corrupt"


class KeltisError(Exception):
    """Base of every expected error. `code` is stable and machine-readable."""

    code = "error"
    kind = Kind.INVALID

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule


class DomainError(KeltisError):
    """Base of every rule violation."""

    code = "domain_error"


class IllegalMove(DomainError):
    """The command breaks a rule of the game."""

    code = "illegal_move"


class NotYourTurn(DomainError):
    """The seat may not act now."""

    code = "not_your_turn"
    kind = Kind.CONFLICT


class GameOver(DomainError):
    """The game has finished; no command is accepted."""

    code = "game_finished"
    kind = Kind.CONFLICT


class InvalidOptions(DomainError):
    """Game options or player count are not allowed."""

    code = "invalid_options"
