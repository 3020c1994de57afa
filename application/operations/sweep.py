"""The sweep: find bot turns and tournament game jobs that were lost (a worker died mid-job,
or the job failed; not a stalled game's: application.games.stalls) and queue them again, and
expire games that waited too long for their seats. Requeueing is harmless: every job checks
versions and outcomes; an expiry is appended with its expected version like any command."""

from __future__ import annotations

import json
import logging

import redis
from rq import Queue
from rq.job import Job, JobStatus

import settings
from application.games.errors import GameNotFound
from application.games.service import GameService
from application.operations import jobs
from application.tournaments import service as tournaments
from gamelog import events
from gamelog.entries import make_batch
from gamelog.record import fold_entries
from store import keys
from store.core.cache import RecordCache
from store.core.clock import now_ms as clock_ms
from store.core.codec import text
from store.games import index
from store.games.eventstore import EventStore
from store.games.stalls import StallStore
from store.tournaments.records import TournamentStore

log = logging.getLogger(__name__)

MAX_REVIVALS = 5
EXPIRY_ENV = "KELTIS_GAME_EXPIRY_S"
DEFAULT_EXPIRY_S = 24 * 3600
EXPIRY_BATCH = 200


def expiry_s() -> float:
    """Seconds a game may wait for its open seats (KELTIS_GAME_EXPIRY_S, default 24 h)."""
    return settings.current().game_expiry_s


def sweep_bot_turns(
    client: redis.Redis,
    stale_after_s: float,
    now_ms: int | None = None,
    queue: redis.Redis | None = None,
) -> list[str]:
    """Re-enqueue the bot turn of every game whose bot has been due too long; their ids.

    `client` is the game store's Redis, `queue` RQ's (default: the same server).
    """
    now_ms = clock_ms() if now_ms is None else now_ms
    store = EventStore(client)
    revived = []
    due = index.bot_turns_due(client, now_ms - int(stale_after_s * 1000))
    stalled = StallStore(client).stalled_at(due)
    for game_id, person in zip(due, _person_seated(client, due), strict=True):
        version = store.length(game_id)
        if stalled.get(game_id) == version:  # its bot failed too often here: no retry
            continue
        try:
            enqueued = jobs.enqueue_bot_turn(
                queue or client, game_id, version, person=person, retry=True
            )
        except redis.RedisError:
            raise
        except Exception:  # one game's unreadable job must not keep the others lost
            log.exception("game %s: its lost bot turn could not be queued again", game_id)
            continue
        if enqueued:
            revived.append(game_id)
    return revived


def _person_seated(client: redis.Redis, game_ids: list[str]) -> list[bool]:
    """Per game, from its index summary: whether a person is seated (True when unknown, so
    a lost turn of a person's game never waits behind bulk games)."""
    if not game_ids:
        return []
    found = []
    for raw in client.hmget(keys.game_summaries(), game_ids):
        players = json.loads(raw)["players"] if raw is not None else [{}]
        found.append(any(not player.get("bot") for player in players))
    return found


def expire_waiting_games(
    client: redis.Redis, older_than_s: float | None = None, now_ms: int | None = None
) -> list[str]:
    """Append `game_expired` to every game that has waited for its seats longer than
    `older_than_s` (default: KELTIS_GAME_EXPIRY_S); the ids expired by this call.

    Each expiry is appended with the expected version: a join that wins the race keeps the
    game (its append came first), and the index keeps the expired game off the waiting list.
    """
    now_ms = clock_ms() if now_ms is None else now_ms
    older_than_s = expiry_s() if older_than_s is None else older_than_s
    cutoff = now_ms - int(older_than_s * 1000)
    candidates = client.zrangebyscore(
        keys.games_waiting(), "-inf", cutoff, start=0, num=EXPIRY_BATCH
    )
    service = GameService(client, cache=RecordCache(16))
    expired = []
    for game_id in (text(raw) for raw in candidates):
        try:
            record = service.load(game_id)[0]
        except GameNotFound:  # the index outlived the log: forget it
            client.zrem(keys.games_waiting(), game_id)
            continue
        if record.status != "waiting":
            service.refresh_index(record)  # the index was behind: correct it
            continue
        expiry = events.game_expired(now_ms - record.created_at)
        batch = make_batch(record.version + 1, [expiry], now_ms, None, None)
        after = fold_entries(record, game_id, batch)
        if service.append_batch(record, batch, after):
            expired.append(game_id)
    return expired


def sweep_tournaments(
    client: redis.Redis,
    stale_after_s: float,
    now_ms: int | None = None,
    queue: redis.Redis | None = None,
) -> list[tuple[str, int]]:
    """Re-enqueue game jobs that were lost; the (tournament, first game) of each revived.

    `client` is the game store's Redis (tournament records), `queue` RQ's (default: same).

    A game without an outcome is lost when its job is gone, finished or failed without
    recording, or started so long ago (its lease, or the first time a sweep saw it started)
    that its worker must have died (SIGKILL, OOM...). A job whose status says queued but
    which is in no queue (its worker died between taking it and marking it started) is
    lost the same way once a sweep has seen it so for `stale_after_s`; one waiting in its
    queue is left alone. Each game is revived at most MAX_REVIVALS times; rerunning a
    game's job is harmless.
    """
    now_ms = clock_ms() if now_ms is None else now_ms
    queue = client if queue is None else queue
    stale_before = now_ms - int(stale_after_s * 1000)
    store = TournamentStore(client)
    revived: list[tuple[str, int]] = []
    for tid in store.running():
        try:
            spec, _ = store.load(tid)
        except Exception:  # a broken record must not stop the sweep of the others
            log.exception("tournament %s: unreadable spec", tid)
            continue
        if (
            spec.turn_by_turn
        ):  # played turn by turn, no game jobs (application.tournaments.open_tournaments)
            continue
        try:
            revived.extend(_sweep_tournament(store, queue, tid, spec, stale_before, now_ms))
        except Exception:  # a failing pass over one tournament must not stop the others
            log.exception("tournament %s: the sweep failed", tid)
    return revived


def _sweep_tournament(
    store: TournamentStore, queue: redis.Redis, tid: str, spec, stale_before: int, now_ms: int
) -> list[tuple[str, int]]:
    """One tournament's pass of `sweep_tournaments`: the (tournament, first game) revived."""
    missing = set(range(spec.games)) - store.recorded_indexes(tid)
    if not missing:
        store.mark_finished(tid)
        return []
    all_firsts = tournaments.job_firsts(spec)
    dispatched, dispatched_at = store.dispatched(tid)
    dispatched_firsts = set(all_firsts[: min(dispatched, len(all_firsts))])
    firsts = sorted(
        {tournaments.job_first_of(spec, index) for index in missing} & dispatched_firsts
    )
    leases = store.leases(tid)
    job_ids = [keys.tournament_game_job_id(tid, first) for first in firsts]
    statuses = _job_statuses(queue, job_ids)
    statuses = _orphans_as_started(queue, job_ids, statuses)
    revivals = store.revivals(tid)
    lost = []
    # A job is counted dispatched before it is enqueued: one without a status while the
    # last dispatch is recent may be in between (its dispatcher descheduled), not lost.
    recent = dispatched_at > stale_before
    for first, status in zip(firsts, statuses, strict=True):
        if status in jobs.PENDING or (status is None and recent):
            continue
        if status == JobStatus.STARTED:
            lease = leases.get(first)
            if lease is None:
                store.take_lease(tid, first, now_ms)  # first seen started
                continue
            if lease > stale_before:
                continue
        if revivals.get(first, 0) >= MAX_REVIVALS:
            continue
        # Read after the status: a job seen finished recorded its outcomes before that.
        if store.unrecorded(tid, tournaments.games_of_job(spec, first)):
            lost.append(first)
    for first in lost:  # deleted before counted: a failed delete uses up no revival
        jobs.delete_job(queue, keys.tournament_game_job_id(tid, first))
        store.count_revival(tid, first)
    revived = [(tid, first) for first in lost]
    if lost:
        jobs.enqueue_games(queue, tid, lost)
    waiting = any(status in jobs.PENDING for status in statuses)
    stalled = dispatched_at <= stale_before and not (waiting or lost)
    if dispatched < len(all_firsts) and stalled:  # the hand-on was lost: dispatch next
        first = jobs.dispatch_next(store, queue, tid, spec)
        if first is not None:
            revived.append((tid, first))
    return revived


def _orphans_as_started(
    client: redis.Redis, job_ids: list[str], statuses: list[JobStatus | None]
) -> list[JobStatus | None]:
    """`statuses`, with each queued job that is not in its queue read as started: RQ takes
    a job off its list before it marks the job started, so a worker killed in between
    leaves a job that says queued and that no worker will ever take."""
    queued = [i for i, status in enumerate(statuses) if status == JobStatus.QUEUED]
    if not queued:
        return statuses
    pipe = client.pipeline(transaction=False)
    for i in queued:
        pipe.hget(Job.key_for(job_ids[i]), "origin")
    origins = pipe.execute()
    for i, origin in zip(queued, origins, strict=True):
        pipe.lpos(Queue.redis_queue_namespace_prefix + text(origin or b""), job_ids[i])
    positions = pipe.execute()
    adjusted = list(statuses)
    for i, position in zip(queued, positions, strict=True):
        if position is None:
            adjusted[i] = JobStatus.STARTED
    return adjusted


def _job_statuses(client: redis.Redis, job_ids: list[str]) -> list[JobStatus | None]:
    """The RQ status of each job (None when the job does not exist), in one round trip."""
    pipe = client.pipeline(transaction=False)
    for job_id in job_ids:
        pipe.hget(Job.key_for(job_id), "status")
    statuses = []
    for raw in pipe.execute():
        try:
            statuses.append(JobStatus(text(raw)) if raw is not None else None)
        except ValueError:
            statuses.append(None)
    return statuses
