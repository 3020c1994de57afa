"""Tournament records in Redis.

Keys of one tournament carry the hash tag `{t:<id>}` (one Redis Cluster slot per
tournament); two index keys span tournaments (rebuildable from the spec keys):

- `keltis:tournament:{t:<id>}:spec`      JSON: the spec plus `created_at` (ms); written once.
- `keltis:tournament:{t:<id>}:outcomes`  hash: game index -> JSON outcome. Written with HSETNX,
  so a game's result counts once however many times its job runs.
- `keltis:tournament:{t:<id>}:leases`    hash: first game of a job -> ms when the job last
  started a game (the sweep re-enqueues jobs whose lease went stale with games unplayed).
- `keltis:tournament:{t:<id>}:revivals`  hash: first game of a job -> times re-enqueued.
- `keltis:tournament:{t:<id>}:meta`      hash: finished_at, archive state, archive_games.
- `keltis:tournament:{t:<id>}:archive`   the zip of the finished games' replays (bytes).
- `keltis:tournament:{t:<id>}:standings` JSON cache: standings at a number of outcomes.
- `keltis:index:tournaments` sorted set id -> created_at; `keltis:index:tournaments:running`
  set of unfinished tournaments (what the sweep looks at).
"""

from __future__ import annotations

import json
import time

import redis

from store.keys import PREFIX
from tournaments.errors import TournamentNotFound
from tournaments.seeds import TOURNAMENT_ID_PATTERN
from tournaments.spec import TournamentSpec
from tournaments.standings import GameOutcome

ARCHIVE_NONE = "none"
ARCHIVE_QUEUED = "queued"
ARCHIVE_READY = "ready"


def _key(tournament_id: str, part: str) -> str:
    return f"{PREFIX}:tournament:{{t:{tournament_id}}}:{part}"


def spec_key(tid: str) -> str:
    return _key(tid, "spec")


def outcomes_key(tid: str) -> str:
    return _key(tid, "outcomes")


def leases_key(tid: str) -> str:
    return _key(tid, "leases")


def revivals_key(tid: str) -> str:
    return _key(tid, "revivals")


def meta_key(tid: str) -> str:
    return _key(tid, "meta")


def archive_key(tid: str) -> str:
    return _key(tid, "archive")


def standings_key(tid: str) -> str:
    return _key(tid, "standings")


def all_tournaments_key() -> str:
    return f"{PREFIX}:index:tournaments"


def running_key() -> str:
    return f"{PREFIX}:index:tournaments:running"


def now_ms() -> int:
    return int(time.time() * 1000)


def _text(value) -> str:
    return value.decode() if isinstance(value, bytes) else value


class TournamentStore:
    """Reads and writes tournament records."""

    def __init__(self, client: redis.Redis):
        self.client = client

    # ----- spec ----------------------------------------------------------------------

    def create(self, tid: str, spec: TournamentSpec, created_at: int | None = None) -> None:
        """Record a new tournament (its spec is written once) and mark it running."""
        created_at = now_ms() if created_at is None else created_at
        data = {**spec.to_dict(), "created_at": created_at}
        self.client.set(spec_key(tid), json.dumps(data, separators=(",", ":")), nx=True)
        pipe = self.client.pipeline(transaction=False)
        pipe.zadd(all_tournaments_key(), {tid: created_at}, nx=True)
        pipe.sadd(running_key(), tid)
        pipe.execute()

    def load(self, tid: str) -> tuple[TournamentSpec, int]:
        """The spec and creation time (ms); TournamentNotFound when there is none."""
        if not TOURNAMENT_ID_PATTERN.match(tid):
            raise TournamentNotFound("no tournament with this id")
        raw = self.client.get(spec_key(tid))
        if raw is None:
            raise TournamentNotFound("no tournament with this id")
        data = json.loads(raw)
        return TournamentSpec.from_dict(data), int(data["created_at"])

    def running(self) -> list[str]:
        """Ids of the tournaments with unfinished games."""
        return sorted(_text(t) for t in self.client.smembers(running_key()))

    # ----- games ---------------------------------------------------------------------

    def take_lease(self, tid: str, first: int, at: int | None = None) -> None:
        """Note that the job starting at game `first` is at work now."""
        self.client.hset(leases_key(tid), str(first), now_ms() if at is None else at)

    def drop_lease(self, tid: str, first: int) -> None:
        self.client.hdel(leases_key(tid), str(first))

    def has_outcome(self, tid: str, index: int) -> bool:
        return bool(self.client.hexists(outcomes_key(tid), str(index)))

    def missing_outcomes(self, tid: str, indexes) -> list[int]:
        """Those of `indexes` that have no outcome yet (one round trip)."""
        indexes = list(indexes)
        found = self.client.hmget(outcomes_key(tid), [str(i) for i in indexes])
        return [index for index, raw in zip(indexes, found, strict=True) if raw is None]

    def record_outcome(self, tid: str, outcome: GameOutcome, total: int) -> bool:
        """Record a finished game's outcome once; True if this call recorded it.

        The call that records the last missing outcome marks the tournament finished.
        """
        pipe = self.client.pipeline(transaction=False)
        pipe.hsetnx(
            outcomes_key(tid),
            str(outcome.index),
            json.dumps(outcome.to_dict(), separators=(",", ":")),
        )
        pipe.hlen(outcomes_key(tid))
        recorded, done = pipe.execute()
        if done >= total:
            self.mark_finished(tid)
        return bool(recorded)

    def mark_finished(self, tid: str) -> None:
        """Every game has its outcome: note when, and take it off the running set."""
        self.client.hsetnx(meta_key(tid), "finished_at", now_ms())
        self.client.srem(running_key(), tid)

    def done(self, tid: str) -> int:
        return self.client.hlen(outcomes_key(tid))

    def outcomes(self, tid: str) -> list[GameOutcome]:
        """Every recorded outcome, in game-index order."""
        raw = self.client.hvals(outcomes_key(tid))
        return sorted((GameOutcome.from_dict(json.loads(v)) for v in raw), key=lambda o: o.index)

    def recorded_indexes(self, tid: str) -> set[int]:
        return {int(i) for i in self.client.hkeys(outcomes_key(tid))}

    def leases(self, tid: str) -> dict[int, int]:
        return {int(i): int(at) for i, at in self.client.hgetall(leases_key(tid)).items()}

    def count_revival(self, tid: str, first: int) -> int:
        """Count one more re-enqueue of the job starting at `first`; the new count."""
        pipe = self.client.pipeline(transaction=False)
        pipe.hincrby(revivals_key(tid), str(first), 1)
        pipe.hdel(leases_key(tid), str(first))
        return pipe.execute()[0]

    def revivals(self, tid: str) -> dict[int, int]:
        return {int(i): int(n) for i, n in self.client.hgetall(revivals_key(tid)).items()}

    # ----- meta, standings cache, archive ----------------------------------------------

    def meta(self, tid: str) -> dict[str, str]:
        return {_text(k): _text(v) for k, v in self.client.hgetall(meta_key(tid)).items()}

    def cached_standings(self, tid: str, done: int) -> list[dict] | None:
        raw = self.client.get(standings_key(tid))
        if raw is None:
            return None
        data = json.loads(raw)
        return data["rows"] if data.get("done") == done else None

    def cache_standings(self, tid: str, done: int, rows: list[dict]) -> None:
        payload = json.dumps({"done": done, "rows": rows}, separators=(",", ":"))
        self.client.set(standings_key(tid), payload)

    def mark_archive_queued(self, tid: str) -> None:
        self.client.hset(meta_key(tid), "archive", ARCHIVE_QUEUED)

    def archive_state(self, tid: str) -> str:
        state = self.client.hget(meta_key(tid), "archive")
        return _text(state) if state else ARCHIVE_NONE

    def save_archive(self, tid: str, data: bytes, games: int) -> None:
        pipe = self.client.pipeline(transaction=False)  # in order: the zip, then "ready"
        pipe.set(archive_key(tid), data)
        pipe.hset(meta_key(tid), mapping={"archive": ARCHIVE_READY, "archive_games": games})
        pipe.execute()

    def archive(self, tid: str) -> bytes | None:
        return self.client.get(archive_key(tid))
