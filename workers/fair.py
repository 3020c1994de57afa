"""The main RQ worker's dequeue: a person's bot turns first, then bulk bot turns and
tournament jobs sharing the worker's time, bulk turns fed one at a time by the fair queue.

RQ's default strategy serves the queues strictly in order, so one busy stream (bulk bot
turns) starved the next (tournaments); its `round_robin` strategy counts jobs, not time,
and rotates every queue, which would put a person's turns behind bulk work on the main
worker. Here the first queue stays first and the others are listened to in the order of
the worker time each has had (least first), a queue that was idle catching up at most
CATCH_UP_S: a tournament of short jobs beside a stream of long searching moves gets as much
of the worker as they do, and neither can hold it. Before each wait the worker hands the
fair queue's next job to RQ's bulk list (store.bots.fair_queue), and marks itself waiting, so a
bulk turn queued while it waits is handed on at once.
"""

from __future__ import annotations

import time

from rq import SimpleWorker, Worker

from application.operations.jobs import fair_queue

WAIT_S = 5  # each wait for work ends this often, to mark the worker waiting afresh
CATCH_UP_S = 1.0  # the most worker time a queue that waited may take before the others


def shared_order(first: list, rest: list, served: dict[str, float]) -> list:
    """The queues in the order to listen to them: `first` as it is, then `rest` by the
    worker time each was served (least first; ties keep their order)."""
    return first + sorted(rest, key=lambda queue: served.get(queue.name, 0.0))


def charge(served: dict[str, float], name: str, seconds: float) -> None:
    """Add a job's time to its queue, then keep every queue within CATCH_UP_S of the least
    served one (so a queue that was idle does not come back owed an hour)."""
    served[name] = served.get(name, 0.0) + max(0.0, seconds)
    least = min(served.values())
    for queue in served:
        served[queue] = min(served[queue] - least, CATCH_UP_S)


class FairDequeue:
    """Mixed into an RQ worker class serving `application.operations.jobs.queues`."""

    _served: dict[str, float] | None = None
    _taken: tuple[str, float] | None = None  # (queue, when) of the job taken last

    def reorder_queues(self, reference_queue):
        """Note which queue the job just taken came from; the order is made before the next
        wait (`_share`), when the job's time is known."""
        self._taken = (reference_queue.name, time.perf_counter())

    def _share(self) -> None:
        """Charge the last job's time to its queue and order the queues for the next wait."""
        if self._served is None:
            self._served = {queue.name: 0.0 for queue in self.queues[1:]}
        if self._taken is not None:
            name, since = self._taken
            if name in self._served:
                charge(self._served, name, time.perf_counter() - since)
            self._taken = None
        self._ordered_queues = shared_order(self.queues[:1], self.queues[1:], self._served)

    def dequeue_job_and_maintain_ttl(self, timeout, max_idle_time=None):
        self._share()
        lane = fair_queue(self.connection)
        if timeout is None:  # burst: one look at the queues
            lane.fill()
            return super().dequeue_job_and_maintain_ttl(timeout, max_idle_time)
        waited = 0
        try:
            while not self._stop_requested:
                lane.worker_waits(self.name, WAIT_S)
                lane.fill()
                result = super().dequeue_job_and_maintain_ttl(min(timeout, WAIT_S), WAIT_S)
                if result is not None:
                    return result
                waited += WAIT_S
                if max_idle_time is not None and waited >= max_idle_time:
                    return None
            return None
        finally:
            lane.worker_busy(self.name)


class FairSimpleWorker(FairDequeue, SimpleWorker):
    """Jobs run in the worker process (the default)."""


class FairForkWorker(FairDequeue, Worker):
    """Each job runs in a forked child (`keltis worker --fork`)."""
