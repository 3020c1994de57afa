"""Where a process finds Redis: REDIS_URL, else the URL a local `keltis serve` wrote."""

from __future__ import annotations

from pathlib import Path

import redis

import settings
from store.core.connection import queue_client, store_client

URL_FILE = Path("var") / "redis.url"


class NoRedisConfigured(Exception):
    """Neither REDIS_URL nor a running `keltis serve` tells where Redis is."""


def redis_url_from_env(url_file: Path = URL_FILE) -> str:
    """REDIS_URL, else the URL in var/redis.url; NoRedisConfigured when neither exists."""
    url = settings.current().redis_url
    if url:
        return url
    if url_file.exists():
        return url_file.read_text().strip()
    raise NoRedisConfigured("set REDIS_URL, or start `keltis serve` (it writes var/redis.url)")


def redis_from_env() -> redis.Redis:
    """A client of the configured game store (a RedisCluster for a cluster URL)."""
    return store_client(redis_url_from_env())


def queue_from_env() -> redis.Redis:
    """A client of RQ's Redis: RQ_REDIS_URL, else the store's own (standalone) server."""
    return queue_client(redis_url_from_env())


_stores: dict[int, tuple[redis.Redis, redis.Redis]] = {}


def store_for(queue: redis.Redis) -> redis.Redis:
    """The game store of jobs taken from `queue` (one client per queue connection): the
    queue's own Redis, or REDIS_URL (a Redis Cluster, say) when RQ_REDIS_URL splits them."""
    known = _stores.get(id(queue))
    if known is None or known[0] is not queue:
        known = (queue, redis_from_env() if settings.current().rq_redis_url else queue)
        _stores[id(queue)] = known
    return known[1]
