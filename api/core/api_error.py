"""The error the HTTP layer raises itself (a bad body, a bad header), Flask-free: answered
in the one error shape by api.core.errors' handlers."""

from __future__ import annotations


class ApiError(Exception):
    """An error raised by the HTTP layer itself (bad body, bad header...)."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
