"""Tournament records in Redis.

Every key is built in `store.keys` (the `tournament_*` keys carry the hash tag `{t:<id>}`,
one Redis Cluster slot per tournament). Outcomes are written with HSETNX, so a game's
result counts once however many times its job runs; leases note when a job last started a
game (the sweep re-enqueues jobs whose lease went stale with games unplayed).

Game jobs are dispatched in order, one at a time: `dispatched` counts the jobs handed to the
queue; a job hands on its successor once (`handoff:<first>`, set in the same script).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import redis

from store import keys
from store.core import notify
from store.core.clock import now_ms
from store.core.codec import text, text_fields
from store.core.cursor import Pager, Position
from store.core.scripts import load_script
from tournaments.errors import TournamentNotFound
from tournaments.seeds import TOURNAMENT_ID_PATTERN
from tournaments.spec import TournamentSpec
from tournaments.standings import GameOutcome
from tournaments.summary import StandingsTable

ARCHIVE_NONE = "none"
ARCHIVE_QUEUED = "queued"
ARCHIVE_READY = "ready"
INVITED = "invited"  # an account entry that has not entered itself yet
ENTERED = "entered"

# KEYS[1] the dispatch hash; ARGV: first game of the job handing on, now (ms), the job's
# number. The number of the next job to dispatch (never one at or before the job's own), or
# -1 when this job handed on already.
HAND_ON = """
if redis.call('HSETNX', KEYS[1], 'handoff:' .. ARGV[1], 1) == 0 then return -1 end
local next = tonumber(redis.call('HGET', KEYS[1], 'dispatched') or '0')
if next <= tonumber(ARGV[3]) then next = tonumber(ARGV[3]) + 1 end
redis.call('HSET', KEYS[1], 'dispatched', next + 1, 'dispatched_at', ARGV[2])
return next
"""


# KEYS[1] outcomes hash, KEYS[2] finish order list, KEYS[3] held outcomes hash, KEYS[4] void
# set; ARGV: game index, outcome JSON, channel, JSON list of the indexes of the game's deal
# (ascending; the game alone but in duplicate). Records the outcome once: held until every
# game of its deal has one, then the deal's outcomes are released together in index order
# (each takes the next place in the finish order, is told on the tournament's channel, and a
# void one joins the void set). Returns {1 if recorded by this call, outcomes released in
# all, 1 if the deal is released}.
RECORD_OUTCOME = """
local index = ARGV[1]
if redis.call('HEXISTS', KEYS[1], index) == 1 then
  return {0, redis.call('HLEN', KEYS[1]), 1}
end
local recorded = redis.call('HSETNX', KEYS[3], index, ARGV[2])
local deal = cjson.decode(ARGV[4])
for _, game in ipairs(deal) do
  if redis.call('HEXISTS', KEYS[3], tostring(game)) == 0 then
    return {recorded, redis.call('HLEN', KEYS[1]), 0}
  end
end
for _, game in ipairs(deal) do
  local member = tostring(game)
  local outcome = redis.call('HGET', KEYS[3], member)
  redis.call('HSET', KEYS[1], member, outcome)
  redis.call('HDEL', KEYS[3], member)
  if cjson.decode(outcome)['void'] then redis.call('SADD', KEYS[4], member) end
  redis.call('RPUSH', KEYS[2], member)
  redis.call('PUBLISH', ARGV[3], member)
end
return {recorded, redis.call('HLEN', KEYS[1]), 1}
"""


class TournamentStore:
    """Reads and writes tournament records."""

    def __init__(self, client: redis.Redis):
        self.client = client
        self._hand_on = client.register_script(HAND_ON)
        self._record_outcome = client.register_script(RECORD_OUTCOME)
        self._end_tick = client.register_script(load_script("lease_release.lua"))

    # ----- spec ----------------------------------------------------------------------

    def create(self, tid: str, spec: TournamentSpec, created_at: int | None = None) -> None:
        """Record a new tournament (its spec is written once) and mark it running."""
        created_at = now_ms() if created_at is None else created_at
        data = {**spec.to_dict(), "created_at": created_at}
        self.client.set(keys.tournament_spec(tid), json.dumps(data, separators=(",", ":")), nx=True)
        pipe = self.client.pipeline(transaction=False)
        pipe.zadd(keys.tournaments_by_created(), {tid: created_at}, nx=True)
        pipe.sadd(keys.tournaments_running(), tid)
        pipe.execute()

    def load(self, tid: str) -> tuple[TournamentSpec, int]:
        """The spec and creation time (ms); TournamentNotFound when there is none."""
        if not TOURNAMENT_ID_PATTERN.match(tid):
            raise TournamentNotFound("no tournament with this id")
        raw = self.client.get(keys.tournament_spec(tid))
        if raw is None:
            raise TournamentNotFound("no tournament with this id")
        data = json.loads(raw)
        return TournamentSpec.from_dict(data), int(data["created_at"])

    def page(self, after: Position | None, limit: int) -> tuple[list[str], Position | None]:
        """Tournament ids, newest first, after a cursor position (store.core.cursor), and the
        position to go on from."""
        return Pager(self.client).page(keys.tournaments_by_created(), after, limit)

    def running(self) -> list[str]:
        """Ids of the tournaments with unfinished games."""
        return sorted(text(t) for t in self.client.smembers(keys.tournaments_running()))

    # ----- dispatch --------------------------------------------------------------------

    def claim_next_job(self, tid: str, at: int | None = None) -> int:
        """Count one more dispatched job; the number (0-based) of the job to enqueue."""
        pipe = self.client.pipeline(transaction=True)
        pipe.hincrby(keys.tournament_dispatch(tid), "dispatched", 1)
        pipe.hset(keys.tournament_dispatch(tid), "dispatched_at", now_ms() if at is None else at)
        return pipe.execute()[0] - 1

    def hand_on(self, tid: str, first: int, number: int) -> int | None:
        """The job starting at `first` (job `number`) hands on: the number of the job to
        enqueue next, or None when this job handed on before (a rerun)."""
        args = [first, now_ms(), number]
        number = self._hand_on(keys=[keys.tournament_dispatch(tid)], args=args)
        return None if int(number) < 0 else int(number)

    def dispatched(self, tid: str) -> tuple[int, int]:
        """(jobs dispatched so far, ms of the last dispatch)."""
        raw = self.client.hmget(keys.tournament_dispatch(tid), ["dispatched", "dispatched_at"])
        return int(raw[0] or 0), int(raw[1] or 0)

    # ----- games ---------------------------------------------------------------------

    def take_lease(self, tid: str, first: int, at: int | None = None) -> None:
        """Note that the job starting at game `first` is at work now."""
        self.client.hset(keys.tournament_leases(tid), str(first), now_ms() if at is None else at)

    def drop_lease(self, tid: str, first: int) -> None:
        self.client.hdel(keys.tournament_leases(tid), str(first))

    def missing_outcomes(self, tid: str, indexes) -> list[int]:
        """Those of `indexes` that have no outcome yet (one round trip)."""
        indexes = list(indexes)
        found = self.client.hmget(keys.tournament_outcomes(tid), [str(i) for i in indexes])
        return [index for index, raw in zip(indexes, found, strict=True) if raw is None]

    def record_outcome(
        self, tid: str, outcome: GameOutcome, total: int, deal: Sequence[int] = ()
    ) -> bool:
        """Record the outcome of a game that is over once; True if this call recorded it.

        `deal`: the indexes of the games of its deal (duplicate; default: the game alone).
        The outcome is held back until every game of the deal has one; then the deal's
        outcomes are released in index order, each taking the next place in the finish order
        (what the tournament's stream walks) and told on the tournament's channel. Until
        then nothing of the game counts or shows (standings, stream, progress, seal). The
        call that releases the last missing outcome marks the tournament finished.
        """
        payload = json.dumps(outcome.to_dict(), separators=(",", ":"))
        games = sorted(deal) if deal else [outcome.index]
        recorded, done, _ = self._record_outcome(
            keys=[
                keys.tournament_outcomes(tid),
                keys.tournament_finish_order(tid),
                keys.tournament_held(tid),
                keys.tournament_void(tid),
            ],
            args=[str(outcome.index), payload, keys.tournament_channel(tid), json.dumps(games)],
        )
        if recorded:
            notify.told_by_script(self.client, [keys.tournament_channel(tid)], b"recorded")
        if done >= total:
            self.mark_finished(tid)
        return bool(recorded)

    def released(self, tid: str, indexes: Sequence[int]) -> bool:
        """Whether every one of these games has its outcome released (a deal is over)."""
        return not self.missing_outcomes(tid, indexes)

    def unrecorded(self, tid: str, indexes) -> list[int]:
        """Those of `indexes` with no outcome recorded yet, released or held."""
        indexes = list(indexes)
        fields = [str(i) for i in indexes]
        pipe = self.client.pipeline(transaction=False)
        pipe.hmget(keys.tournament_outcomes(tid), fields)
        pipe.hmget(keys.tournament_held(tid), fields)
        released, held = pipe.execute()
        return [
            index
            for index, out, hold in zip(indexes, released, held, strict=True)
            if out is None and hold is None
        ]

    def void_count(self, tid: str) -> int:
        """How many released outcomes are void (cancelled games: no result)."""
        return int(self.client.scard(keys.tournament_void(tid)))

    def finished_since(self, tid: str, position: int, limit: int = 200) -> list[GameOutcome]:
        """The outcomes recorded after the first `position` ones, in the order recorded."""
        last = position + limit - 1
        order = self.client.lrange(keys.tournament_finish_order(tid), position, last)
        if not order:
            return []
        found = self.client.hmget(keys.tournament_outcomes(tid), order)
        return [GameOutcome.from_dict(json.loads(raw)) for raw in found if raw is not None]

    def mark_finished(self, tid: str) -> None:
        """Every game has its outcome: note when, and take it off the running set."""
        self.client.hsetnx(keys.tournament_meta(tid), "finished_at", now_ms())
        self.client.srem(keys.tournaments_running(), tid)

    def cancel(self, tid: str, at: int | None = None) -> bool:
        """Mark the tournament cancelled (no more games start); True if this call did."""
        marked = self.client.hsetnx(
            keys.tournament_meta(tid), "cancelled_at", now_ms() if at is None else at
        )
        self.client.srem(keys.tournaments_running(), tid)
        notify.tell(self.client, [keys.tournament_channel(tid)], b"cancelled")
        return bool(marked)

    def is_cancelled(self, tid: str) -> bool:
        return bool(self.client.hexists(keys.tournament_meta(tid), "cancelled_at"))

    def set_organiser(self, tid: str, digest: str) -> None:
        """Keep the hash of the token that may cancel the tournament."""
        self.client.hset(keys.tournament_meta(tid), "organiser", digest)

    # ----- open tournaments: games launched turn by turn ---------------------------------

    def mark_started(self, tid: str, index: int, at: int | None = None) -> bool:
        """Note that game `index` was launched; False if it was before."""
        at = now_ms() if at is None else at
        return bool(self.client.hsetnx(keys.tournament_started(tid), str(index), at))

    def started(self, tid: str) -> set[int]:
        """The indexes of the games launched so far."""
        return {int(i) for i in self.client.hkeys(keys.tournament_started(tid))}

    def begin_tick(self, tid: str, token: str, lease_ms: int) -> bool:
        """Take the lease of advancing the tournament (one process at a time)."""
        return bool(self.client.set(keys.tournament_tick_lock(tid), token, nx=True, px=lease_ms))

    def end_tick(self, tid: str, token: str) -> None:
        self._end_tick(keys=[keys.tournament_tick_lock(tid)], args=[token])

    def mark_due(self, tid: str, at: int | None = None) -> None:
        """Ask the workers to advance the tournament soon."""
        self.client.zadd(keys.tournaments_due(), {tid: now_ms() if at is None else at})

    def take_due(self, limit: int = 50) -> list[str]:
        """Pop the tournaments asked to be advanced (oldest first)."""
        return [text(t) for t, _ in self.client.zpopmin(keys.tournaments_due(), limit)]

    def done(self, tid: str) -> int:
        return self.client.hlen(keys.tournament_outcomes(tid))

    def outcomes(self, tid: str) -> list[GameOutcome]:
        """Every recorded outcome, in game-index order."""
        raw = self.client.hvals(keys.tournament_outcomes(tid))
        return sorted((GameOutcome.from_dict(json.loads(v)) for v in raw), key=lambda o: o.index)

    def recorded_indexes(self, tid: str) -> set[int]:
        """The indexes with an outcome recorded, released or held."""
        pipe = self.client.pipeline(transaction=False)
        pipe.hkeys(keys.tournament_outcomes(tid))
        pipe.hkeys(keys.tournament_held(tid))
        released, held = pipe.execute()
        return {int(i) for i in [*released, *held]}

    def leases(self, tid: str) -> dict[int, int]:
        return {
            int(i): int(at) for i, at in self.client.hgetall(keys.tournament_leases(tid)).items()
        }

    def count_revival(self, tid: str, first: int) -> int:
        """Count one more re-enqueue of the job starting at `first`; the new count."""
        pipe = self.client.pipeline(transaction=False)
        pipe.hincrby(keys.tournament_revivals(tid), str(first), 1)
        pipe.hdel(keys.tournament_leases(tid), str(first))
        return pipe.execute()[0]

    def revivals(self, tid: str) -> dict[int, int]:
        return {
            int(i): int(n) for i, n in self.client.hgetall(keys.tournament_revivals(tid)).items()
        }

    # ----- meta, standings cache, archive ----------------------------------------------

    def invite(self, tid: str, names: list[str], entered: list[str]) -> None:
        """Write a tournament's account entries: `names` invited, `entered` entered."""
        states = {name: INVITED for name in names} | {name: ENTERED for name in entered}
        if states:
            self.client.hset(keys.tournament_entries(tid), mapping=states)

    def enter(self, tid: str, name: str) -> str | None:
        """Mark the account entry `name` (any case) entered; its entry as written, None when
        the tournament has no such entry."""
        for written, state in self.entries(tid).items():
            if written.lower() == name.lower():
                if state != ENTERED:
                    self.client.hset(keys.tournament_entries(tid), written, ENTERED)
                return written
        return None

    def entries(self, tid: str) -> dict[str, str]:
        """Each account entry's name (as written) and state (`invited`, `entered`)."""
        found = self.client.hgetall(keys.tournament_entries(tid))
        return {text(name): text(state) for name, state in found.items()}

    def awaiting(self, tid: str) -> list[str]:
        """The account entries invited that have not entered themselves yet."""
        return sorted(name for name, state in self.entries(tid).items() if state == INVITED)

    def meta(self, tid: str) -> dict[str, str]:
        return text_fields(self.client.hgetall(keys.tournament_meta(tid)))

    def cached_standings(self, tid: str, done: int) -> StandingsTable | None:
        """The standings cached at `done` recorded outcomes (None: none, or stale)."""
        raw = self.client.get(keys.tournament_standings(tid))
        if raw is None:
            return None
        data = json.loads(raw)
        if data.get("done") != done or "pairs" not in data:
            return None
        return StandingsTable(data["rows"], data["pairs"])

    def cache_standings(self, tid: str, done: int, table: StandingsTable) -> None:
        payload = {"done": done, "rows": table.rows, "pairs": table.pairs}
        self.client.set(keys.tournament_standings(tid), json.dumps(payload, separators=(",", ":")))

    def mark_archive_queued(self, tid: str) -> None:
        self.client.hset(keys.tournament_meta(tid), "archive", ARCHIVE_QUEUED)

    def archive_state(self, tid: str) -> str:
        """none, queued or ready; an archive that expired is none again."""
        state = self.client.hget(keys.tournament_meta(tid), "archive")
        state = text(state) if state else ARCHIVE_NONE
        if state == ARCHIVE_READY and not self.client.exists(keys.tournament_archive(tid)):
            return ARCHIVE_NONE
        return state

    def save_archive(self, tid: str, data: bytes, games: int, ttl_s: int) -> None:
        """Store the zip for `ttl_s` seconds, then mark it ready."""
        pipe = self.client.pipeline(transaction=False)  # in order: the zip, then "ready"
        pipe.set(keys.tournament_archive(tid), data, ex=ttl_s)
        pipe.hset(
            keys.tournament_meta(tid), mapping={"archive": ARCHIVE_READY, "archive_games": games}
        )
        pipe.execute()

    def archive(self, tid: str) -> bytes | None:
        return self.client.get(keys.tournament_archive(tid))
