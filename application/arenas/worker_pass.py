"""The workers' arena pass (application.arenas.service has the use cases): every ~0.2 s each worker
runs it over the live arenas (workers.arenas). It records the arena games that are over (the
leaderboard, the feed; their bots wait again, or are paused at their second forfeit in a
row), ends the arenas past their window, and seats the waiting bots in new games: tables
formed by `tables`, each claimed atomically (store.arenas.records: two passes racing never seat one
bot twice), then created through GameService under the id `<arena id>-g<n>`."""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Callable

import orjson
import redis

from application.arenas.service import BOT_PREFIX, PAUSE_AFTER_FORFEITS, status_of
from application.games.errors import VersionConflict
from application.games.service import GameService
from domain.errors import KeltisError
from gamelog.outcome import is_over, outcome_of
from gamelog.record import GameRecord
from store.archive import listing as archive_listing
from store.arenas.records import ArenaStore
from store.core.clock import now_ms

log = logging.getLogger(__name__)

CREATE_GRACE_MS = 3_000  # a claimed game not created after this: the pass creates it
OVER = ("finished", "cancelled", "expired")  # index statuses of a game that takes no move


def tables(
    waiting: dict[str, int], recent: dict[str, set[str]], size: int, rng: random.Random
) -> list[list[str]]:
    """Tables of `size` among the waiting bots: the longest waiting first, each with the
    longest waiting others it did not just play against (those only when no one else is
    free), and each with a bot account: the operator's built-in bots alone are not rated
    (as POST /v1/games: a rating moves only by a game a player agreed to), so they wait
    for one. Pure: a bot sits at one table at most."""
    queue = sorted(waiting, key=lambda a: (waiting[a], a))
    found = []
    while len(queue) >= size and any(not a.startswith(BOT_PREFIX) for a in queue):
        first = queue.pop(0)
        fresh = [
            a for a in queue if a not in recent.get(first, ()) and first not in recent.get(a, ())
        ]
        stale = [a for a in queue if a not in fresh]
        table = [first, *(fresh + stale)[: size - 1]]
        if all(a.startswith(BOT_PREFIX) for a in table):  # the first waiting account joins
            table[-1] = next(a for a in queue if not a.startswith(BOT_PREFIX))
        for a in table[1:]:
            queue.remove(a)
        rng.shuffle(table)  # seat order: chance decides
        found.append(table)
    return found


class ArenaPass:
    """One pass over every live arena (run by each worker every ~0.2 s)."""

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
        summaries = archive_listing.read_summaries(
            self.service.client, self.service.store.archive, ids
        )
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
                self._drop_missing(aid, plan)
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
                consenting=_entrants(plan),
            )
        except VersionConflict:
            record, _, _ = self.service.load(game_id)
        except KeltisError as error:  # an account gone, renamed...: recorded void
            log.warning("arena game %s not created: %s", game_id, error)
            return None
        return record

    def _drop_missing(self, aid: str, plan: dict) -> None:
        """A game could not be created: the entries whose account is gone leave the arena
        (else they would be paired into void games again and again)."""
        for member, name, bot in zip(plan["accounts"], plan["names"], plan["bots"], strict=True):
            if not bot and self.service.accounts.get(name) is None:
                self.store.leave(aid, member)


def _entrants(plan: dict) -> frozenset[str]:
    """The (folded) accounts of an arena game: each joined the arena itself, its consent."""
    seats = _seats(plan)
    return frozenset(seat["account"].lower() for seat in seats if seat.get("account"))


def _seats(plan: dict) -> list[dict]:
    """The players of an arena game: bot accounts, and the operator's built-in bots."""
    bots = plan.get("bots") or [False] * len(plan["names"])
    return [
        {"name": name, "bot": name} if bot else {"account": name}
        for name, bot in zip(plan["names"], bots, strict=True)
    ]
