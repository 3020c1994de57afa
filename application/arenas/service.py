"""Arenas: an operator opens one (a game, a table size, a clock, a time window); bot accounts
join and leave; the service keeps every joined bot in a game while the arena runs (the
Battlesnake / CodinGame way), rated on the ladder, with a leaderboard.

The arena is a schedule in Redis (store.arenas.records), not a game: what it makes are ordinary
games created through GameService under the ids `<arena id>-g<n>` (so a game names its
arena), rated, with the arena's clock. The workers' arena pass (application.arenas.worker_pass,
every
~0.2 s in each worker, workers.arenas) does all the scheduling, so the arena outlives any web or
worker process: it records the arena games that are over (leaderboard, feed, the bots wait
again), then seats the waiting bots in new games (a claim script seats a table all at once
or not at all: two passes racing never seat one bot twice). Pairing prefers the bots that
waited longest and opponents other than the last game's; a bot that forfeits
PAUSE_AFTER_FORFEITS games in a row (a dead client: its clock ran out) is paused: not paired
again until it joins again, so one dead bot does not drag others into forfeit games. When
the window ends (or the operator closes it) no game starts; running ones finish, then the
arena is over.
"""

from __future__ import annotations

import hmac

import settings
from application.arenas.errors import (
    ArenaFull,
    ArenaNotFound,
    ArenaOver,
    BotAccountOnly,
    InvalidArena,
    OperatorOnly,
)
from application.common.ids import random_id
from application.games.service import GameService
from ladder.display import provisional, shown_rating
from ladder.entries import participant_id
from store.arenas.records import ArenaStore
from store.core.clock import now_ms
from store.core.cursor import Position
from store.ladder.records import LadderStore

OPERATOR_ENV = "KELTIS_OPERATOR_TOKEN"
ARENA_ID_BYTES = 9  # 12 URL-safe characters
PAUSE_AFTER_FORFEITS = 2
DEFAULT_CLOCK = {"move_seconds": 10, "bank_seconds": 0, "fallback": "random", "max_timeouts": 2}
MAX_MEMBERS = 500
BOT_PREFIX = "bot:"  # the member key of a built-in bot entry (account names have no ':')


# ----- the operator ---------------------------------------------------------------------------


def check_operator(token: str | None, expected: str | None = None) -> None:
    """OperatorOnly unless `token` is the operator's (KELTIS_OPERATOR_TOKEN; none set: no
    one is the operator)."""
    expected = settings.current().operator_token if expected is None else expected
    if not expected or not token or not hmac.compare_digest(token.encode(), expected.encode()):
        raise OperatorOnly("only the operator (KELTIS_OPERATOR_TOKEN) opens and closes arenas")


# ----- opening, reading, closing ---------------------------------------------------------------


def open_arena(store: ArenaStore, request: dict, now: int | None = None) -> dict:
    """Record a new arena from a validated request; its description."""
    now = now_ms() if now is None else now
    rules = GameService.rules_for(request["game"])
    players = request.get("players", 2)
    if not rules.min_players <= players <= min(rules.max_players, 4):
        raise InvalidArena(f"{rules.name} tables seat {rules.min_players} to {rules.max_players}")
    clock = {**DEFAULT_CLOCK, **(request.get("clock") or {})}
    if clock["fallback"] not in rules.bots:
        raise InvalidArena(f"unknown fallback bot {clock['fallback']!r}")
    starts_at = request.get("starts_at") or now
    ends_at = request["ends_at"]
    if ends_at <= max(starts_at, now):
        raise InvalidArena("ends_at must be after starts_at and now")
    bots = sorted(set(request.get("bots") or []))
    for bot in bots:
        if bot not in rules.bots or _searching(rules, bot):
            raise InvalidArena(
                f"{bot!r}: an arena's built-in bots are the game's heuristics"
                f" ({', '.join(b for b in sorted(rules.bots) if not _searching(rules, b))});"
                " a searching bot's CPU would have no payer"
            )
    aid = random_id(ARENA_ID_BYTES)
    spec = {
        "id": aid,
        "name": request["name"],
        "game": request["game"],
        "options": rules.normalize_options(request.get("options") or {}),
        "players": players,
        "clock": clock,
        "starts_at": starts_at,
        "ends_at": ends_at,
        "created_at": now,
    }
    store.create(aid, spec)
    for bot in bots:  # the operator's entries: each plays one game at a time, like a bot account
        store.join(aid, BOT_PREFIX + bot, bot, now, bot=True)
    return describe(store, aid, now)


def _searching(rules, bot: str) -> bool:
    searching = getattr(rules.bots, "searching", None)
    return bool(searching and searching(bot))


def load(store: ArenaStore, aid: str) -> dict:
    spec = store.spec(aid)
    if spec is None:
        raise ArenaNotFound("no arena with this id")
    return spec


def status_of(spec: dict, meta: dict, now: int) -> str:
    """scheduled, running, finishing (no new game; games still running) or finished."""
    if "finished_at" in meta:
        return "finished"
    if "closed_at" in meta or now >= spec["ends_at"]:
        return "finishing"
    return "scheduled" if now < spec["starts_at"] else "running"


def leaderboard(store: ArenaStore, aid: str, spec: dict) -> list[dict]:
    """One row per bot that joined or played: points (a win, shared or not, is a point),
    games, score total, forfeits, its state in the arena and its ladder rating; best first."""
    state = store.state(aid)
    names = {a: m["name"] for a, m in state.members.items()}
    names.update({a: row["name"] for a, row in state.board.items() if a not in names})
    keys_of = {
        a: (spec["game"], participant_id(name, bot=a.startswith(BOT_PREFIX)))
        for a, name in names.items()
    }
    ratings = LadderStore(store.client).ratings(keys_of.values())
    rows = []
    for folded, name in names.items():
        row = state.board.get(folded, {})
        rating = ratings.get(keys_of[folded])
        if folded not in state.members:
            where = "left"
        elif folded in state.paused:
            where = "paused"
        elif folded in state.busy:
            where = "playing"
        else:
            where = "waiting"
        rows.append(
            {
                "account": name,
                "bot": folded.startswith(BOT_PREFIX),
                "points": row.get("wins", 0),
                "games": row.get("games", 0),
                "score": row.get("score", 0),
                "forfeits": row.get("forfeits", 0),
                "state": where,
                "game_id": state.busy.get(folded),
                "rating": None
                if rating is None
                else {
                    "mu": rating.mu,
                    "sigma": rating.sigma,
                    "ordinal": rating.ordinal,
                    "rating": shown_rating(rating.ordinal),
                    "provisional": provisional(rating.games),
                },
            }
        )
    rows.sort(key=lambda r: (-r["points"], -r["score"], r["games"], r["account"].lower()))
    for rank, row in enumerate(rows, 1):
        row["rank"] = rank
    return rows


def summary(store: ArenaStore, spec: dict, now: int) -> dict:
    meta = store.meta(spec["id"])
    return {
        **{k: spec[k] for k in ("id", "name", "game", "options", "players", "clock")},
        "starts_at": spec["starts_at"],
        "ends_at": spec["ends_at"],
        "created_at": spec["created_at"],
        "closed_at": int(meta["closed_at"]) if "closed_at" in meta else None,
        "finished_at": int(meta["finished_at"]) if "finished_at" in meta else None,
        "status": status_of(spec, meta, now),
        "games_started": int(meta.get("seq", 0)),
    }


def describe(store: ArenaStore, aid: str, now: int | None = None) -> dict:
    """The arena's summary with its live leaderboard."""
    spec = load(store, aid)
    now = now_ms() if now is None else now
    return {**summary(store, spec, now), "leaderboard": leaderboard(store, aid, spec)}


def list_arenas(
    store: ArenaStore, after: Position | None, limit: int, now: int | None = None
) -> tuple[list[dict], str | None]:
    """A page of arenas, newest first (no leaderboards), and the next cursor."""
    now = now_ms() if now is None else now
    ids, position = store.page(after, limit)
    found = [summary(store, spec, now) for spec in map(store.spec, ids) if spec is not None]
    return found, position.encode() if position else None


def close(store: ArenaStore, aid: str, now: int | None = None) -> dict:
    """The operator closes the arena: no game starts any more; running ones finish."""
    load(store, aid)
    now = now_ms() if now is None else now
    if not store.close(aid, now) and "finished_at" in store.meta(aid):
        raise ArenaOver("the arena is over already")
    return describe(store, aid, now)


# ----- joining and leaving ---------------------------------------------------------------------


def join(store: ArenaStore, aid: str, account, now: int | None = None) -> dict:
    """A bot account joins (or joins again: a paused bot is paired again); its row."""
    spec = load(store, aid)
    now = now_ms() if now is None else now
    if status_of(spec, store.meta(aid), now) in ("finishing", "finished"):
        raise ArenaOver("the arena takes no more games")
    if not account.bot:
        raise BotAccountOnly("only bot accounts play in arenas")
    state = store.state(aid)
    if account.folded not in state.members and len(state.members) >= MAX_MEMBERS:
        raise ArenaFull(f"an arena takes at most {MAX_MEMBERS} bots")
    store.join(aid, account.folded, account.name, now)
    return _row_of(store, aid, spec, account.name)


def leave(store: ArenaStore, aid: str, account) -> dict:
    """The bot is not paired again; the game it plays goes on with its clock."""
    spec = load(store, aid)
    store.leave(aid, account.folded)
    return _row_of(store, aid, spec, account.name)


def _row_of(store: ArenaStore, aid: str, spec: dict, name: str) -> dict:
    for row in leaderboard(store, aid, spec):
        if row["account"].lower() == name.lower():
            return row
    return {"account": name, "state": "left"}
