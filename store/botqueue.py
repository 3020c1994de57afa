"""Enqueue bot turns on RQ (JSON serializer, job id from game and version)."""

from __future__ import annotations

import redis
from rq import Queue
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job, JobStatus
from rq.serializers import JSONSerializer

from store import keys

BOT_JOB = "workers.bot_turns.play_bot_turns"
JOB_TIMEOUT_S = 120
PENDING = {JobStatus.QUEUED, JobStatus.DEFERRED, JobStatus.SCHEDULED}


def bot_queue(client: redis.Redis) -> Queue:
    """The queue of bot turns on `client`."""
    return Queue(keys.queue_name(), connection=client, serializer=JSONSerializer)


def enqueue_bot_turn(client: redis.Redis, game_id: str, version: int, retry: bool = False) -> bool:
    """Enqueue the bot turn due at `version`; a repeat does nothing. True when enqueued.

    With `retry` (the sweep), a job of that id that is no longer pending (its worker died,
    or it failed) is replaced; running it again is harmless (the append checks the version).
    """
    queue = bot_queue(client)
    job_id = keys.bot_job_id(game_id, version)
    if retry:
        try:
            job = Job.fetch(job_id, connection=client, serializer=JSONSerializer)
        except NoSuchJobError:
            job = None
        if job is not None:
            if job.get_status(refresh=False) in PENDING and job_id in queue.job_ids:
                return False
            job.delete()
    try:
        queue.enqueue(
            BOT_JOB,
            args=[game_id, version],
            job_id=job_id,
            unique=True,
            job_timeout=JOB_TIMEOUT_S,
            result_ttl=300,
            failure_ttl=3600,
        )
    except DuplicateJobError:
        return False
    return True
