"""The interactive lane: an RQ worker in a thread of `keltis worker` that serves only the
bot turns of games with a person seated.

The process's main RQ worker serves every queue, a person's bot turns first; but it takes
them only between jobs, and a bulk job (a tournament's or an all-bot game's search move,
up to `mcts:5000`, five CPU-seconds) would make a person wait for it. The lane never takes
bulk work, so a person's bot turn waits for at most the person turns ahead of it. Its jobs
run in this thread (searches count their own thread's CPU time), with a timer (not
SIGALRM, which only the main thread may use) as the job timeout.
"""

from __future__ import annotations

import logging
import os
import threading

from rq import SimpleWorker
from rq.serializers import JSONSerializer
from rq.timeouts import TimerDeathPenalty

import settings
from application.operations.jobs import bot_queue
from store.core.connection import queue_client

POLL_S = 1  # the lane's blocking dequeue returns this often: a stop (Ctrl-C) waits at most this
NICENESS_ENV = "KELTIS_BULK_NICENESS"  # 0: the bulk worker keeps its priority

log = logging.getLogger(__name__)


def bulk_niceness() -> int:
    """How much the bulk worker lowers its priority: KELTIS_BULK_NICENESS, else 10."""
    return settings.current().bulk_niceness


def lower_this_threads_priority(niceness: int | None = None) -> None:
    """Let the calling thread (the main worker, which takes bulk work) yield the CPU to the
    other threads and processes (the lanes, the web processes): on Linux a thread's nice
    value is its own, and threads started later inherit it, so call this after starting
    them. A search still gets its whole budget: it counts its thread's CPU time."""
    if niceness is None:
        niceness = bulk_niceness()
    if niceness <= 0 or not hasattr(os, "setpriority"):
        return
    try:
        thread = threading.get_native_id()
        current = os.getpriority(os.PRIO_PROCESS, thread)
        os.setpriority(os.PRIO_PROCESS, thread, min(19, current + niceness))
    except OSError as error:
        log.warning("could not lower the bulk worker's priority: %s", error)


class LaneWorker(SimpleWorker):
    """A SimpleWorker that runs in a thread other than the main one."""

    death_penalty_class = TimerDeathPenalty

    def _install_signal_handlers(self):
        """The process's main worker handles SIGINT and SIGTERM."""

    @property
    def dequeue_timeout(self) -> int:
        return POLL_S

    def dequeue_job_and_maintain_ttl(self, timeout, max_idle_time=None):
        """rq's dequeue waits again after a wait that timed out, without looking at a stop
        request (a stopped lane ran on until `InteractiveLane.stop` gave up joining it): here
        each wait ends within POLL_S (rq's idle limit) and a stopped lane gets None, which
        ends its work loop. In burst mode (no `timeout`: one look at the queue) rq's own."""
        if timeout is None:
            return super().dequeue_job_and_maintain_ttl(timeout, max_idle_time)
        while not self._stop_requested:
            result = super().dequeue_job_and_maintain_ttl(timeout, POLL_S)
            if result is not None:
                return result
        return None


class InteractiveLane:
    """An interactive-lane worker on `redis_url`'s RQ Redis, run in a daemon thread."""

    def __init__(self, redis_url: str):
        client = queue_client(redis_url)
        self.worker = LaneWorker(
            [bot_queue(client, True)], connection=client, serializer=JSONSerializer
        )
        self._thread = threading.Thread(target=self._run, name="interactive-lane", daemon=True)

    def _run(self) -> None:
        self.worker.work(logging_level="WARNING", with_scheduler=False)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout_s: float = POLL_S + 3) -> None:
        """Stop after the job in hand (if any)."""
        self.worker._stop_requested = True
        self._thread.join(timeout_s)
