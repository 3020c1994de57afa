"""The sweep: find bot turns and tournament game jobs that were lost (a worker died mid-job)
and queue them again. Requeueing is harmless: every job checks versions and outcomes."""

from __future__ import annotations

import logging

import redis
from rq.job import Job, JobStatus

from application import jobs, tournaments
from store import index, keys
from store.clock import now_ms as clock_ms
from store.codec import text
from store.eventstore import EventStore
from store.tournaments import TournamentStore

log = logging.getLogger(__name__)

MAX_REVIVALS = 5


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
    for game_id in index.bot_turns_due(client, now_ms - int(stale_after_s * 1000)):
        if jobs.enqueue_bot_turn(queue or client, game_id, store.length(game_id), retry=True):
            revived.append(game_id)
    return revived


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
    that its worker must have died (SIGKILL, OOM...). Queued jobs are left alone. Each game
    is revived at most MAX_REVIVALS times; rerunning a game's job is harmless.
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
        missing = set(range(spec.games)) - store.recorded_indexes(tid)
        if not missing:
            store.mark_finished(tid)
            continue
        firsts = sorted({tournaments.job_first_of(spec, index) for index in missing})
        leases = store.leases(tid)
        job_ids = [keys.tournament_game_job_id(tid, first) for first in firsts]
        statuses = _job_statuses(queue, job_ids)
        revivals = store.revivals(tid)
        lost = []
        for first, status in zip(firsts, statuses, strict=True):
            if status in jobs.PENDING:
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
            if store.missing_outcomes(tid, tournaments.games_of_job(spec, first)):
                lost.append(first)
        for first in lost:
            store.count_revival(tid, first)
            jobs.delete_job(queue, keys.tournament_game_job_id(tid, first))
        if lost:
            jobs.enqueue_games(queue, tid, lost)
            revived.extend((tid, first) for first in lost)
    return revived


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
