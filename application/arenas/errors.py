"""The errors of arenas (application.arenas.service), each a KeltisError of a kind."""

from __future__ import annotations

from domain.errors import KeltisError, Kind


class ArenaNotFound(KeltisError):
    code = "arena_not_found"
    kind = Kind.NOT_FOUND


class OperatorOnly(KeltisError):
    """Arenas are opened and closed by the operator (KELTIS_OPERATOR_TOKEN)."""

    code = "operator_only"
    kind = Kind.FORBIDDEN


class BotAccountOnly(KeltisError):
    """Only bot accounts play in arenas."""

    code = "bot_account_only"
    kind = Kind.FORBIDDEN


class ArenaOver(KeltisError):
    code = "arena_over"
    kind = Kind.CONFLICT


class ArenaFull(KeltisError):
    code = "arena_full"
    kind = Kind.CONFLICT


class InvalidArena(KeltisError):
    code = "invalid_arena"
