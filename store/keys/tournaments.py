"""Keys of tournaments (hash tag `{t:<id>}`)."""

from __future__ import annotations

from store.keys.games import PREFIX

# ----- tournaments ---------------------------------------------------------------------------


def _tournament(tournament_id: str, part: str) -> str:
    return f"{PREFIX}:tournament:{{t:{tournament_id}}}:{part}"


def tournament_spec(tid: str) -> str:
    """JSON: the spec plus `created_at` (ms); written once."""
    return _tournament(tid, "spec")


def tournament_outcomes(tid: str) -> str:
    """Hash: game index -> JSON outcome, written with HSETNX (a result counts once)."""
    return _tournament(tid, "outcomes")


def tournament_held(tid: str) -> str:
    """Hash: game index -> JSON outcome of a duplicate deal's game held back until every
    game of its deal is over (then moved to the outcomes in index order)."""
    return _tournament(tid, "held")


def tournament_void(tid: str) -> str:
    """Set of the indexes whose recorded outcome is void (a cancelled game: no result)."""
    return _tournament(tid, "void")


def tournament_leases(tid: str) -> str:
    """Hash: first game of a job -> ms when the job last started a game."""
    return _tournament(tid, "leases")


def tournament_revivals(tid: str) -> str:
    """Hash: first game of a job -> times the sweep re-enqueued it."""
    return _tournament(tid, "revivals")


def tournament_meta(tid: str) -> str:
    """Hash: finished_at, cancelled_at, archive state, archive_games, the hash of the
    organiser's token (cancel)."""
    return _tournament(tid, "meta")


def tournament_entries(tid: str) -> str:
    """Hash: an account entry's name (as written) -> `invited` until the account entered
    itself, then `entered` (application.tournaments.entries)."""
    return _tournament(tid, "entries")


def tournament_dispatch(tid: str) -> str:
    """Hash of the fair dispatch of a tournament's game jobs: `dispatched` (jobs handed to
    the queue so far, in order), `dispatched_at` (ms), `handoff:<first>` (the job starting
    at `first` handed on its successor)."""
    return _tournament(tid, "dispatch")


def tournament_archive(tid: str) -> str:
    """The zip of the finished games' replays (bytes), with a TTL: built on request."""
    return _tournament(tid, "archive")


def tournament_standings(tid: str) -> str:
    """JSON cache: the standings at a number of recorded outcomes."""
    return _tournament(tid, "standings")


def tournament_started(tid: str) -> str:
    """Hash of an open tournament's games launched so far: game index -> ms launched."""
    return _tournament(tid, "started")


def tournament_finish_order(tid: str) -> str:
    """List of game indexes in the order their outcomes were recorded (stream positions)."""
    return _tournament(tid, "order")


def tournament_tick_lock(tid: str) -> str:
    """The lease of the one process advancing an open tournament (SET NX PX)."""
    return _tournament(tid, "tick")


def tournament_channel(tid: str) -> str:
    """Pub/sub channel told of each recorded outcome of a tournament (a hint; in the
    tournament's slot, so a sharded channel lives on its node)."""
    return f"{PREFIX}:notify:tournament:{{t:{tid}}}"


def tournaments_due() -> str:
    """Sorted set of open tournaments to advance (a game of theirs finished), scored by ms."""
    return f"{PREFIX}:index:tournaments:due"


def tournaments_by_created() -> str:
    """Sorted set of every tournament id, scored by creation time (ms)."""
    return f"{PREFIX}:index:tournaments"


def tournaments_running() -> str:
    """Set of the tournaments with unfinished games (what the sweep looks at)."""
    return f"{PREFIX}:index:tournaments:running"
