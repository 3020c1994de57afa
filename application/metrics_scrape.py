"""One scrape of the service's metrics: every process's counters (application.metrics, summed
over PROMETHEUS_MULTIPROC_DIR in multiprocess mode) plus gauges read from Redis at scrape
time, at a bounded cost: one pipelined round trip per server, a fixed number of commands
(one ZCARD per game status, one LLEN per queue), whatever the number of games."""

from __future__ import annotations

import os

import redis
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector

from application import metrics
from application.jobs import queues
from gamelog.record import STATUSES
from store import keys

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
        depth = GaugeMetricFamily(
            "keltis_queue_depth", "Jobs waiting in each RQ queue.", labels=["queue"]
        )
        known = queues(self.queue)
        counts = _read(self.queue, [("llen", queue.key) for queue in known])
        reachable.add_metric(["queue"], counts is not None)
        if counts is not None:
            for queue, count in zip(known, counts, strict=True):
                depth.add_metric([queue.name], count)
            yield depth
        yield reachable


def _read(client: redis.Redis, commands: list[tuple[str, str]]) -> list | None:
    """The answers of single-key read `commands` sent in one pipelined round trip; None
    when the server does not answer."""
    pipe = client.pipeline(transaction=False)
    for name, key in commands:
        getattr(pipe, name)(key)
    try:
        return pipe.execute()
    except redis.RedisError:
        return None


def multiprocess_dir() -> str | None:
    """The multiprocess directory of this process, when it runs in that mode."""
    path = os.environ.get(MULTIPROC_ENV, "").strip()
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
