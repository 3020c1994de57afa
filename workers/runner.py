"""Start an RQ worker for the service's jobs, with the sweep, deadline, webhook, ladder
settle, log compaction and (with KELTIS_ARCHIVE_URL) archive threads beside it."""

from __future__ import annotations

from rq.serializers import JSONSerializer

from application.operations.jobs import queues
from store.archive.tier import archive_url
from store.core.connection import queue_client
from workers.archive import ArchiveThread
from workers.arenas import ArenaThread
from workers.challenges import ChallengeThread
from workers.compact import CompactThread
from workers.fair import FairForkWorker, FairSimpleWorker
from workers.lanes import InteractiveLane, lower_this_threads_priority
from workers.pairing import pairing_thread
from workers.settle import SettleThread
from workers.sweep import DeadlineThread, SweepThread
from workers.webhooks import WebhookThread


def run_worker(
    redis_url: str,
    burst: bool = False,
    sweep_every_s: float = 5.0,
    stale_after_s: float = 5.0,
    fork: bool = False,
    deadline_every_s: float = 0.15,
    webhooks: bool = True,
    settle_every_s: float = 0.25,
    compact_every_s: float = 1.0,
    archive_every_s: float = 5.0,
    interactive_lanes: int = 1,
) -> None:
    """Work the queues (a person's bot turns first, then all-bot games' bot turns and
    tournaments sharing the worker's time, workers.fair) until stopped (or empty, with
    `burst`), with `interactive_lanes` threads beside that serve only a person's bot turns
    (workers.lanes), so that none waits behind bulk work; the main thread (bulk work) then
    runs at a lower CPU priority.

    By default jobs run in the worker process (rq's SimpleWorker): a bot turn takes
    milliseconds, and a fork per job would cost more than the turn itself.
    """
    client = queue_client(redis_url)  # RQ's Redis: RQ_REDIS_URL, else the store's server
    worker_class = FairForkWorker if fork else FairSimpleWorker
    worker = worker_class(queues(client), connection=client, serializer=JSONSerializer)
    sweeper = SweepThread(redis_url, sweep_every_s, stale_after_s) if sweep_every_s > 0 else None
    clocks = DeadlineThread(redis_url, deadline_every_s) if deadline_every_s > 0 else None
    callers = WebhookThread(redis_url) if webhooks else None
    settler = SettleThread(redis_url, settle_every_s) if settle_every_s > 0 else None
    compactor = CompactThread(redis_url, compact_every_s) if compact_every_s > 0 else None
    pairer = pairing_thread(redis_url)  # the rated pool's seeks (workers.pairing)
    archiver = ArchiveThread(redis_url, archive_every_s) if archive_url() else None
    threads = [
        t for t in (sweeper, clocks, callers, settler, compactor, pairer, archiver) if t is not None
    ]
    threads.append(ChallengeThread(redis_url))  # challenges, two-board matches
    threads.append(ArenaThread(redis_url))  # the arenas' pairing (application.arenas.worker_pass)
    if not burst:
        threads += [InteractiveLane(redis_url) for _ in range(max(0, interactive_lanes))]
    for thread in threads:
        thread.start()
    if any(isinstance(thread, InteractiveLane) for thread in threads):
        lower_this_threads_priority()  # bulk work yields the CPU to the lanes and the web
    try:
        worker.work(burst=burst, logging_level="WARNING", with_scheduler=False)
    finally:
        for thread in threads:
            thread.stop()
