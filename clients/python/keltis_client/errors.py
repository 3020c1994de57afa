"""The service's one error shape, `{"error": {"code", "message", ...}}`, as exceptions."""

from __future__ import annotations

from typing import Any


class KeltisError(Exception):
    """Anything the kit cannot do for you; `str()` says why in words."""


class ApiError(KeltisError):
    """A 4xx/5xx answer: its status, `code`, `message` and the whole error object."""

    def __init__(self, status: int, code: str, message: str, error: dict[str, Any] | None = None):
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message
        self.error: dict[str, Any] = error or {}
        self.retry_after: float | None = None

    @property
    def current_version(self) -> int | None:
        """A 409 `version_conflict`'s version of the game now."""
        value = self.error.get("current_version")
        return value if isinstance(value, int) else None

    @property
    def conflict(self) -> bool:
        """409: not your turn, game over, a stale version, a name taken ..."""
        return self.status == 409


class AccountTaken(KeltisError):
    """The account name is taken and no key for it was given or saved."""
