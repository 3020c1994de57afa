"""One scrape of the service's metrics: every process's counters (application.metrics.counters,
summed
over PROMETHEUS_MULTIPROC_DIR in multiprocess mode) plus gauges read from Redis at scrape
time, at a bounded cost: one pipelined round trip to the store and two to RQ's server, a
fixed number of commands (one ZCARD per game status; per queue its length and its first
job, then that job's enqueue time), whatever the number of games or jobs."""

from __future__ import annotations

import os
import time

import redis
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector
from rq.job import Job
from rq.utils import utcparse

import settings
from application.metrics import counters as metrics
from application.operations.jobs import fair_queue, queues
from gamelog.record import STATUSES
from store import keys
from store.core.codec import text

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class RedisGauges:
    """A collector of gauges read from Redis when scraped: games by status (the listing's
    status sets) and the depth of each RQ queue. A server that does not answer leaves its
    gauges out and shows as 0 in `keltis_redis_reachable`; the rest is still served."""

    def __init__(self, store: redis.Redis, queue: redis.Redis):
        self.store = store
        self.queue = queue

    def describe(self):
        return []  # read at scrape time only; nothing to check at registration

    def collect(self):
        reachable = GaugeMetricFamily(
            "keltis_redis_reachable",
            "Whether the scrape could read the server (store: the games; queue: RQ's).",
            labels=["server"],
        )
        statuses = [str(status) for status in STATUSES]
        games = GaugeMetricFamily(
            "keltis_games", "Listed games, by status (the listing's index).", labels=["status"]
        )
        counts = _read(self.store, [("zcard", keys.games_by_status(s)) for s in statuses])
        reachable.add_metric(["store"], counts is not None)
        if counts is not None:
            for status, count in zip(statuses, counts, strict=True):
                games.add_metric([status], count)
            yield games
        found = _queue_gauges(self.queue)
        reachable.add_metric(["queue"], found is not None)
        if found is not None:
            yield from found
        yield reachable


def _queue_gauges(client: redis.Redis) -> list | None:
    """Per RQ queue, the jobs waiting and the age of the oldest (seconds; 0 when none); the
    bulk queue's count the fair queue in front of it (store.bots.fair_queue). None when RQ's
    server does not answer."""
    known = queues(client)
    bulk = known[1]
    fair = fair_queue(client)
    heads = _read(
        client,
        [("llen", queue.key) for queue in known]
        + [("lindex", queue.key, 0) for queue in known]
        + [("zcard", fair.waiting_key), ("zrange", fair.waiting_key, 0, 0, False, True)],
    )
    if heads is None:
        return None
    count = len(known)
    lengths, firsts, (fair_count, fair_oldest) = heads[:count], heads[count:-2], heads[-2:]
    queued_at = _read(
        client, [("hget", Job.key_for(text(first)), "enqueued_at") for first in firsts if first]
    )
    if queued_at is None:
        return None
    now = time.time()
    depth = GaugeMetricFamily(
        "keltis_queue_depth", "Jobs waiting in each RQ queue.", labels=["queue"]
    )
    oldest = GaugeMetricFamily(
        "keltis_queue_oldest_wait_seconds",
        "How long the oldest job waiting in each RQ queue has waited (0: none waits).",
        labels=["queue"],
    )
    stamps = iter(queued_at)
    for queue, length, first in zip(known, lengths, firsts, strict=True):
        stamp = next(stamps) if first else None
        waited = [now - utcparse(text(stamp)).timestamp()] if stamp else []
        if queue is bulk:
            length += fair_count
            waited += [now - score / 1000 for _, score in fair_oldest]
        depth.add_metric([queue.name], length)
        oldest.add_metric([queue.name], max([0.0, *waited]))
    return [depth, oldest]


def _read(client: redis.Redis, commands: list[tuple]) -> list | None:
    """The answers of single-key read `commands` ((name, key, *args)) sent in one pipelined
    round trip; None when the server does not answer."""
    pipe = client.pipeline(transaction=False)
    for name, key, *args in commands:
        getattr(pipe, name)(key, *args)
    try:
        return pipe.execute()
    except redis.RedisError:
        return None


def multiprocess_dir() -> str | None:
    """The multiprocess directory of this process, when it runs in that mode."""
    path = settings.current().prometheus_multiproc_dir
    return path if path and os.path.isdir(path) else None


def scrape(store: redis.Redis, queue: redis.Redis, path: str | None = None) -> bytes:
    """The Prometheus text exposition of every process's metrics (those in the multiprocess
    directory `path`, default this process's own) and the Redis gauges."""
    registry = CollectorRegistry(auto_describe=False)
    path = path or multiprocess_dir()
    if path is not None:
        MultiProcessCollector(registry, path=path)
    else:
        registry.register(_Local())
    registry.register(RedisGauges(store, queue))
    return generate_latest(registry)


class _Local:
    """This process's own metrics (single-process mode: no multiprocess directory)."""

    def describe(self):
        return []

    def collect(self):
        return metrics.REGISTRY.collect()
