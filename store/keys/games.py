"""Keys of games: a game's own keys (hash tag `{<game id>}`, so a Cluster keeps a game on one
slot), the indexes over all games, bot turns due, deadlines, stalls, derived answers."""

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


def packed(game_id: str) -> str:
    """String: a finished game's compacted log (store.games.packing), once written the game's
    truth: its entries and token hashes in one compressed, versioned blob."""
    return _game(game_id, "packed")


def snapshot(game_id: str) -> str:
    """String: the game's record at a recent version (gamelog.snapshot), written with the
    append that made that version; derived data, dropped when the game is compacted."""
    return _game(game_id, "snapshot")


def log_pattern() -> str:
    """SCAN pattern matching the log of every game (used to rebuild the indexes)."""
    return f"{PREFIX}:game:*:log"


def packed_pattern() -> str:
    """SCAN pattern matching the compacted log of every compacted game."""
    return f"{PREFIX}:game:*:packed"


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


def games_to_compact() -> str:
    """Sorted set of finished games whose log is not compacted yet, scored by when they
    finished (ms) or, once a worker claimed one, until when its claim holds (an index over
    the logs, written with the finishing append; application.operations.compaction drains it)."""
    return f"{PREFIX}:index:to-compact"


def games_to_archive() -> str:
    """Sorted set of compacted games waiting to move to the archive tier (store.archive.tier),
    scored by when they were compacted (ms) or, once claimed, until when the claim holds;
    filed only while KELTIS_ARCHIVE_URL is set (application.operations.archive drains it)."""
    return f"{PREFIX}:index:to-archive"


def stalled_games() -> str:
    """Sorted set of the games whose bot turn failed too often at one version, scored by
    when they stalled (ms); the hash `stalls` holds why."""
    return f"{PREFIX}:index:stalled"


def stalls() -> str:
    """Hash: game id -> JSON {version, failures, since, reason} of its failing bot turn."""
    return f"{PREFIX}:index:stalls"


def bot_turns() -> str:
    """Sorted set of games waiting for a bot, scored by the time (ms) the bot became due."""
    return f"{PREFIX}:index:bot-turns"


def deadlines() -> str:
    """Sorted set of the games whose turn clock runs, scored by the seat's deadline (ms):
    what the workers' deadline loop claims from (an index over the logs)."""
    return f"{PREFIX}:index:deadlines"


def game_creator(game_id: str) -> str:
    """Hash: who created an API game (its creator token's digest, its account) and the bot
    CPU charged for it (store.budget.records, store.creators)."""
    return _game(game_id, "creator")


def game_analysis(game_id: str) -> str:
    """Hash: a finished game's analysis (application.bots.analysis): status, job id, result."""
    return _game(game_id, "analysis")


def game_derived(game_id: str) -> str:
    """Hash: answers derived from a finished game's log, built once (application.games.built_once):
    `<name>|<part>` -> bytes, the name carrying the identity it was built from; it expires."""
    return _game(game_id, "derived")


def game_derived_lease(game_id: str, name: str) -> str:
    """String: the lease of the one process building the derived answer `name` of a game."""
    return _game(game_id, f"derived-lease:{name}")


def analysis_job_id(game_id: str) -> str:
    """RQ job id of the job that analyses a finished game."""
    return f"analysis-{game_id}"
