"""Errors every capability of the application layer shares; each capability's own are in its
`errors.py`. Each is a `domain.errors.KeltisError` of a kind."""

from __future__ import annotations

from domain.errors import KeltisError


class UnknownGame(KeltisError):
    """The named game (rules) does not exist."""

    code = "unknown_game"
