"""Arenas: an operator opens one (a game, a table size, a clock, a time window); bot accounts
join and leave; the service keeps every joined bot in a game while the arena runs (the
Battlesnake / CodinGame way), rated on the ladder, with a leaderboard.

The arena is a schedule in Redis (store.arenas), not a game: what it makes are ordinary
games created through GameService under the ids `<arena id>-g<n>` (so a game names its
arena), rated, with the arena's clock. The workers' arena pass (`run_pass`, every ~150 ms
in each worker, workers.arenas) does all the scheduling, so the arena outlives any web or
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
import logging
import os
import random
import secrets
from collections.abc import Callable

import orjson
import redis

from application.errors import AccountNotFound, VersionConflict
from application.games import GameService
from domain.errors import KeltisError, Kind
from gamelog.outcome import is_over, outcome_of
from gamelog.record import GameRecord
from ladder.entries import participant_id
from store import keys
from store.arenas import ArenaStore
from store.clock import now_ms
from store.cursor import Position
from store.ladder import LadderStore

log = logging.getLogger(__name__)

OPERATOR_ENV = "KELTIS_OPERATOR_TOKEN"
ARENA_ID_BYTES = 9  # 12 URL-safe characters
PAUSE_AFTER_FORFEITS = 2
CREATE_GRACE_MS = 3_000  # a claimed game not created after this: the pass creates it
DEFAULT_CLOCK = {"move_seconds": 10, "bank_seconds": 0, "fallback": "random", "max_timeouts": 2}
MAX_MEMBERS = 500
OVER = ("finished", "cancelled", "expired")
BOT_PREFIX = "bot:"  # the member key of a built-in bot entry (account names have no ':')


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


# ----- the operator ---------------------------------------------------------------------------


def check_operator(token: str | None, expected: str | None = None) -> None:
    """OperatorOnly unless `token` is the operator's (KELTIS_OPERATOR_TOKEN; none set: no
    one is the operator)."""
    expected = os.environ.get(OPERATOR_ENV) if expected is None else expected
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
    aid = secrets.token_urlsafe(ARENA_ID_BYTES)
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
                else {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal},
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


# ----- the workers' pass -------------------------------------------------------------------------


def tables(
    waiting: dict[str, int], recent: dict[str, set[str]], size: int, rng: random.Random
) -> list[list[str]]:
    """Tables of `size` among the waiting bots: the longest waiting first, each with the
    longest waiting others it did not just play against (those only when no one else is
    free). Pure: a bot sits at one table at most."""
    queue = sorted(waiting, key=lambda a: (waiting[a], a))
    found = []
    while len(queue) >= size:
        first = queue.pop(0)
        fresh = [
            a for a in queue if a not in recent.get(first, ()) and first not in recent.get(a, ())
        ]
        stale = [a for a in queue if a not in fresh]
        table = [first, *(fresh + stale)[: size - 1]]
        for a in table[1:]:
            queue.remove(a)
        rng.shuffle(table)  # seat order: chance decides
        found.append(table)
    return found


class ArenaPass:
    """One pass over every live arena (run by each worker every ~150 ms)."""

    def __init__(
        self,
        service: GameService,
        store: ArenaStore | None = None,
        clock: Callable[[], int] = now_ms,
    ):
        self.service = service
        self.store = store or ArenaStore(service.client)
        self.clock = clock
        self.rng = random.Random(secrets.randbits(64))

    def run(self) -> dict[str, int]:
        """Record, start, finish; counts of what it did."""
        done = {"recorded": 0, "started": 0}
        for aid in self.store.live():
            try:
                recorded, started = self.run_arena(aid)
            except redis.RedisError:
                raise  # no Redis: the pass is over (the caller says so once)
            except Exception:  # one broken arena must not stop the others
                log.exception("arena %s: the pass failed", aid)
                continue
            done["recorded"] += recorded
            done["started"] += started
        return done

    def run_arena(self, aid: str) -> tuple[int, int]:
        spec = self.store.spec(aid)
        if spec is None:
            return 0, 0
        now = self.clock()
        state = self.store.state(aid)
        recorded = self._record_over(aid, spec, state.running, now)
        meta = self.store.meta(aid)
        status = status_of(spec, meta, now)
        if status == "finishing":
            if "closed_at" not in meta:
                self.store.close(aid, now)  # the window ended: claims refuse from now on
            if not self.store.state(aid).running:
                self.store.finish(aid, now)
            return recorded, 0
        if status != "running":
            return recorded, 0
        state = self.store.state(aid)
        return recorded, self._start_games(aid, spec, state, now)

    def _record_over(self, aid: str, spec: dict, running: dict[str, dict], now: int) -> int:
        """Record the arena's games that are over; create one a pass claimed and did not
        create (it died in between)."""
        if not running:
            return 0
        ids = sorted(running)
        summaries = self.service.client.hmget(keys.game_summaries(), ids)
        count = 0
        for game_id, raw in zip(ids, summaries, strict=True):
            plan = running[game_id]
            if raw is not None and orjson.loads(raw)["status"] not in OVER:
                continue  # in play: nothing to do (read from the index, one round trip)
            if raw is None:
                if now - plan["created_at"] < CREATE_GRACE_MS:
                    continue
                record = self._create(spec, game_id, plan)
                if record is None:
                    count += self._record(aid, game_id, plan, None, now)
                    continue
            else:
                record, _, _ = self.service.load(game_id)
            if is_over(record):
                count += self._record(aid, game_id, plan, record, now)
        return count

    def _record(
        self, aid: str, game_id: str, plan: dict, record: GameRecord | None, now: int
    ) -> int:
        seats, line = [], {"type": "game_finished", "game": game_id, "players": plan["names"]}
        if record is None:  # could not be created (an account gone): void
            line.update(void="not_created", scores=None, winners=[], forfeited=[])
            seats = [
                {"account": a, "name": n, "win": False, "score": None, "forfeited": False}
                for a, n in zip(plan["accounts"], plan["names"], strict=True)
            ]
        else:
            ended = outcome_of(record)
            names = [p.get("account") or p.get("name") for p in record.players]
            members = plan["accounts"]  # in seat order: the game was created from the plan
            line.update(
                players=names,
                scores=list(ended.scores),
                winners=list(ended.winners),
                forfeited=list(ended.forfeited),
                ended=ended.ended,
                void=ended.void,
            )
            for seat, name in enumerate(names):
                seats.append(
                    {
                        "account": members[seat],
                        "name": name,
                        "win": seat in ended.winners,
                        "score": ended.scores[seat],
                        "forfeited": seat in ended.forfeited,
                    }
                )
        line["recorded_at"] = now
        return int(self.store.record(aid, game_id, line, seats, PAUSE_AFTER_FORFEITS, now))

    def _start_games(self, aid: str, spec: dict, state, now: int) -> int:
        waiting = {a: t for a, t in state.free.items() if a in state.members}
        recent = self.store.recent(aid, sorted(waiting))
        started = 0
        for table in tables(waiting, recent, spec["players"], self.rng):
            if self.clock() >= spec["ends_at"]:
                break  # the window ended during this pass
            names = [state.members[a]["name"] for a in table]
            bots = [a.startswith(BOT_PREFIX) for a in table]
            plan = {"accounts": table, "names": names, "bots": bots, "created_at": now}
            game_id = self.store.claim(aid, table, plan, f"{aid}-g", now)
            if game_id is None:
                continue  # another pass seated one of them first
            if self._create(spec, game_id, plan) is None:
                self._record(aid, game_id, plan, None, now)
                continue
            started += 1
        return started

    def _create(self, spec: dict, game_id: str, plan: dict) -> GameRecord | None:
        """Create the arena game (a rerun finds it); None when it cannot be created."""
        try:
            record, _, _ = self.service.create(
                spec["game"],
                _seats(plan),
                spec["options"],
                game_id=game_id,
                clock=spec["clock"],
                rated=True,
            )
        except VersionConflict:
            record, _, _ = self.service.load(game_id)
        except (AccountNotFound, KeltisError) as error:
            log.warning("arena game %s not created: %s", game_id, error)
            return None
        return record


def _seats(plan: dict) -> list[dict]:
    """The players of an arena game: bot accounts, and the operator's built-in bots."""
    bots = plan.get("bots") or [False] * len(plan["names"])
    return [
        {"name": name, "bot": name} if bot else {"account": name}
        for name, bot in zip(plan["names"], bots, strict=True)
    ]
