"""Every Redis key name of the service, built here and nowhere else (never inside Lua).

Keys of one game carry the hash tag `{<game id>}`, so a Redis Cluster keeps a game on one
slot and the game's Lua scripts stay legal there. Index keys span games and are rebuildable
from the logs (`store.index.rebuild`).
"""

from __future__ import annotations

import re

PREFIX = "keltis"
GAME_ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


def _game(game_id: str, part: str) -> str:
    return f"{PREFIX}:game:{{{game_id}}}:{part}"


def log(game_id: str) -> str:
    """The append-only list of log entries; entry k (1-based) is version k."""
    return _game(game_id, "log")


def idempotency(game_id: str) -> str:
    """Hash: "<seat>:<idempotency key>" -> the first answer given to that request."""
    return _game(game_id, "idem")


def tokens(game_id: str) -> str:
    """Hash: seat -> SHA-256 hex of that seat's bearer token."""
    return _game(game_id, "tokens")


def log_pattern() -> str:
    """SCAN pattern matching the log of every game (used to rebuild the indexes)."""
    return f"{PREFIX}:game:*:log"


def game_id_from_log_key(key: str) -> str:
    """The game id inside a log key."""
    return key[key.index("{") + 1 : key.index("}")]


def games_by_created() -> str:
    """Sorted set of every game id, scored by creation time (ms)."""
    return f"{PREFIX}:index:games"


def games_by_status(status: str) -> str:
    """Sorted set of the ids of games in `status`, scored by creation time (ms)."""
    return f"{PREFIX}:index:games:status:{status}"


def games_by_game(game: str) -> str:
    """Sorted set of the ids of games of the game `game`, scored by creation time (ms)."""
    return f"{PREFIX}:index:games:game:{game}"


def games_by_game_and_status(game: str, status: str) -> str:
    """Sorted set of the ids of games of `game` in `status`, scored by creation time (ms)."""
    return f"{PREFIX}:index:games:game-status:{status}:{game}"


def game_summaries() -> str:
    """Hash: game id -> compact JSON summary (game, status, version, to_move, players...)."""
    return f"{PREFIX}:index:summaries"


def bot_turns() -> str:
    """Sorted set of games waiting for a bot, scored by the time (ms) the bot became due."""
    return f"{PREFIX}:index:bot-turns"


def queue_name() -> str:
    """The RQ queue of bot turns."""
    return f"{PREFIX}-bots"


def bot_job_id(game_id: str, version: int) -> str:
    """RQ job id of the bot turn due at `version` of a game (only [A-Za-z0-9_-])."""
    return f"bot-{game_id}-{version}"
