"""The bulk lane's fair queue, on RQ's Redis: bulk bot turns wait here per stream (a
creator: an account, an address, a tournament) and reach RQ's bulk queue one at a time,
in start-time fair order.

Why not RQ alone: RQ serves a queue first in, first out, and its dequeue strategies
(round_robin, random) only rotate a worker's fixed list of queues. One queue per creator
would need every worker to learn new queue names as creators come and go (a blocked BLPOP
does not), and would leave a queue name and its registries behind for every address that
ever made a game. Here RQ's bulk list holds at most one job, moved in by `fill` when a
worker is about to wait for work (or by `push` while one waits), so the order in which
creators are served is decided here and not by when their jobs were queued.

Start-time fair queueing (Goyal et al.): each stream's next job has a tag; the smallest is
dispatched and the clock becomes its tag; a stream with more jobs waiting comes back at tag
+ 1; a stream that had nothing waiting starts at the clock (or at its own next tag, if it
was served ahead of the clock, so leaving and coming back takes no extra turn). So a
creator's first job waits behind the job in hand and at most one job of each other stream,
however many jobs those streams have waiting.
"""

from __future__ import annotations

import time

import redis

from store import keys
from store.core.codec import text
from store.core.scripts import load_script

IDLE_MARGIN_S = 5  # a waiting worker's mark outlives its wait by this much


class FairQueue:
    """The fair queue in front of the RQ list `target` (the bulk queue's key; `queues_key`
    is RQ's set of queue keys)."""

    def __init__(self, client: redis.Redis, target: str, queues_key: str, clock=time.time):
        self.client = client
        self.target = target
        self.queues_key = queues_key
        self.waiting_key = keys.fair_lane("waiting")
        self.clock = clock
        self._script = client.register_script(load_script("fair_queue.lua"))
        self._keys = [
            keys.fair_lane("ring"),
            keys.fair_lane("finish"),
            keys.fair_lane("clock"),
            keys.fair_lane("waiting"),
            keys.fair_lane("idle"),
            target,
        ]

    def push(self, stream: str, job_id: str) -> bool:
        """Queue a saved job of `stream`; handed to RQ at once if a worker waits. False when
        that job waits here already."""
        now_ms = int(self.clock() * 1000)
        reply = self._script(
            keys=[*self._keys, keys.fair_stream(stream), self.queues_key],
            args=["push", job_id, now_ms],
        )
        return bool(int(reply))

    def fill(self) -> bool:
        """Hand the next job to RQ's list if it is empty; whether one was moved."""
        return bool(int(self._script(keys=self._keys, args=["fill"])))

    def waiting(self, job_id: str) -> bool:
        """Whether a job waits here (not yet handed to RQ)."""
        return self.client.zscore(keys.fair_lane("waiting"), job_id) is not None

    def job_ids(self) -> list[str]:
        """Every job waiting here, oldest first."""
        return [text(job) for job in self.client.zrange(keys.fair_lane("waiting"), 0, -1)]

    def worker_waits(self, worker: str, for_s: float) -> None:
        """Mark `worker` as waiting for work for up to `for_s` (a push then hands a job on)."""
        until_ms = int((self.clock() + for_s + IDLE_MARGIN_S) * 1000)
        self.client.zadd(keys.fair_lane("idle"), {worker: until_ms})

    def worker_busy(self, worker: str) -> None:
        self.client.zrem(keys.fair_lane("idle"), worker)

    def empty(self) -> None:
        """Drop every waiting job (tests, operators clearing a queue)."""
        streams = self.client.zrange(keys.fair_lane("ring"), 0, -1)
        names = ("ring", "finish", "clock", "waiting", "idle")
        self.client.delete(*streams, *(keys.fair_lane(name) for name in names))
