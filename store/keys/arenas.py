"""Keys of arenas (hash tag `{r:<id>}`)."""

from __future__ import annotations

from store.keys.games import PREFIX

# ----- arenas (the always-on bot arena; keys of one arena carry {r:<id>}) ----


def _arena(aid: str, part: str) -> str:
    return f"{PREFIX}:arena:{{r:{aid}}}:{part}"


def arena_spec(aid: str) -> str:
    """JSON: the arena's spec (name, game, options, players, clock, window); written once."""
    return _arena(aid, "spec")


def arena_meta(aid: str) -> str:
    """Hash: closed_at (the operator closed it), finished_at (no game left), seq (games)."""
    return _arena(aid, "meta")


def arena_members(aid: str) -> str:
    """Hash: folded account name -> JSON {name, joined_at} of the bots that joined."""
    return _arena(aid, "members")


def arena_free(aid: str) -> str:
    """Sorted set: folded account name -> ms since it waits for a game (joined, not playing)."""
    return _arena(aid, "free")


def arena_busy(aid: str) -> str:
    """Hash: folded account name -> id of the arena game it plays."""
    return _arena(aid, "busy")


def arena_paused(aid: str) -> str:
    """Hash: folded account name -> ms it was paused (forfeited game after game)."""
    return _arena(aid, "paused")


def arena_streaks(aid: str) -> str:
    """Hash: folded account name -> games forfeited in a row."""
    return _arena(aid, "streaks")


def arena_running(aid: str) -> str:
    """Hash: game id -> JSON {accounts, created_at} of the arena's games not recorded yet."""
    return _arena(aid, "running")


def arena_games(aid: str) -> str:
    """Sorted set: every game id of the arena -> its sequence number."""
    return _arena(aid, "games")


def arena_board(aid: str) -> str:
    """Hash: folded account name -> JSON {name, games, wins, score, forfeits}."""
    return _arena(aid, "board")


def arena_recent(aid: str) -> str:
    """Hash: folded account name -> JSON list of its last game's opponents."""
    return _arena(aid, "recent")


def arena_feed(aid: str) -> str:
    """List: JSON line per recorded game, in the order recorded (its stream walks it)."""
    return _arena(aid, "feed")


def arena_channel(aid: str) -> str:
    """The channel told when an arena game is recorded or the arena ends."""
    return f"{PREFIX}:notify:arena:{{r:{aid}}}"


def arenas_by_created() -> str:
    """Sorted set: arena id -> ms created (GET /v1/arenas walks it)."""
    return f"{PREFIX}:arenas:by-created"


def arenas_live() -> str:
    """Set: ids of the arenas not over yet (the workers' arena pass walks it)."""
    return f"{PREFIX}:arenas:live"
