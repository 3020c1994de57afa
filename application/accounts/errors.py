"""Errors of accounts and of who is acting (application.accounts)."""

from __future__ import annotations

from domain.errors import KeltisError, Kind


class Unauthenticated(KeltisError):
    code = "unauthenticated"
    kind = Kind.UNAUTHENTICATED


class WrongGameToken(KeltisError):
    code = "token_of_another_game"
    kind = Kind.FORBIDDEN


class AccountNotFound(KeltisError):
    code = "account_not_found"
    kind = Kind.NOT_FOUND


class NameTaken(KeltisError):
    """Another account has this name (names are compared ignoring case)."""

    code = "name_taken"
    kind = Kind.CONFLICT


class SeatNotHeld(KeltisError):
    """The account key is valid, but the account holds no (such) seat of this game."""

    code = "seat_not_held"
    kind = Kind.FORBIDDEN


class SignInFailed(Unauthenticated):
    """The name or the password is wrong (one answer for both: it never says which names
    exist)."""

    code = "sign_in_failed"


class SignInLimited(KeltisError):
    """Too many sign-in attempts of this client, or of this client for this name (429,
    Retry-After: seconds until the window ends)."""

    code = "sign_in_limited"
    kind = Kind.RATE_LIMITED

    def __init__(self, message: str, retry_after_s: int):
        super().__init__(message)
        self.retry_after_s = max(1, retry_after_s)


class WeakPassword(KeltisError):
    """A password the service does not take (too short, too long, the account's name)."""

    code = "weak_password"
    kind = Kind.INVALID


class PasswordRequired(KeltisError):
    """A sign-in session asks for what only the key, or the password given again, may do:
    replace the key, change the webhook, change the password."""

    code = "password_required"
    kind = Kind.FORBIDDEN


class SessionNotFound(KeltisError):
    code = "session_not_found"
    kind = Kind.NOT_FOUND


class PasswordsBusy(KeltisError):
    """Too many password hashes wait in this process (503, Retry-After: 1)."""

    code = "passwords_busy"
    kind = Kind.UNAVAILABLE
    retry_after_s = 1
