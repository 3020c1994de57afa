"""Redis clients from URLs: a standalone server, or a Redis Cluster for the game store.

- `redis://`, `rediss://`, `unix://`: one Redis server (store and RQ queue together).
- `redis+cluster://host:port` (or `rediss+cluster://`), or any `redis://` URL with
  REDIS_CLUSTER=1: a Redis Cluster, reached through `redis.cluster.RedisCluster` (the seed
  node's address; the other nodes are discovered). Every key of one game carries the hash
  tag `{<game id>}`, so a game and its Lua append stay on one slot.
- RQ cannot run on a Redis Cluster: with a cluster store the bot-turn queue needs a
  standalone Redis, named by RQ_REDIS_URL.
"""

from __future__ import annotations

import os

import redis
from redis.cluster import RedisCluster

CLUSTER_SCHEMES = ("redis+cluster://", "rediss+cluster://")
CLUSTER_ENV = "REDIS_CLUSTER"
QUEUE_ENV = "RQ_REDIS_URL"


class ClusterNeedsQueueRedis(Exception):
    """A Redis Cluster store was configured without a standalone Redis for RQ."""


def cluster_url(url: str) -> str:
    """`url` in its explicit form: `redis+cluster://...` when REDIS_CLUSTER=1 asks for it."""
    if os.environ.get(CLUSTER_ENV) == "1" and url.startswith(("redis://", "rediss://")):
        scheme, rest = url.split("://", 1)
        return f"{scheme}+cluster://{rest}"
    return url


def is_cluster(url: str) -> bool:
    """True when `url` (after `cluster_url`) names a Redis Cluster."""
    return cluster_url(url).startswith(CLUSTER_SCHEMES)


def store_client(url: str, **options) -> redis.Redis | RedisCluster:
    """The game store's client: RedisCluster for a cluster URL, else redis.Redis."""
    url = cluster_url(url)
    if url.startswith(CLUSTER_SCHEMES):
        return RedisCluster.from_url(url.replace("+cluster", "", 1), **options)
    return redis.Redis.from_url(url, **options)


def queue_url(store_url: str, configured: str | None = None) -> str:
    """RQ's Redis: `configured` (RQ_REDIS_URL), else the store's own standalone server."""
    configured = configured or os.environ.get(QUEUE_ENV) or None
    if configured:
        return configured
    if is_cluster(store_url):
        raise ClusterNeedsQueueRedis(
            "RQ cannot run on a Redis Cluster: set RQ_REDIS_URL to a standalone Redis"
        )
    return store_url


def queue_client(store_url: str, configured: str | None = None, **options) -> redis.Redis:
    """A client of RQ's Redis (always a standalone server)."""
    return redis.Redis.from_url(queue_url(store_url, configured), **options)
