"""Redis clients from URLs: a standalone server, or a Redis Cluster for the game store.

- `redis://`, `rediss://`, `unix://`: one Redis server (store and RQ queue together).
- `redis+cluster://host:port` (or `rediss+cluster://`), or any `redis://` URL with
  REDIS_CLUSTER=1: a Redis Cluster, reached through `redis.cluster.RedisCluster` (the seed
  node's address; the other nodes are discovered). Every key of one game carries the hash
  tag `{<game id>}`, so a game and its Lua append stay on one slot.
- RQ cannot run on a Redis Cluster: with a cluster store the bot-turn queue needs a
  standalone Redis, named by RQ_REDIS_URL.

Every client draws its connections from a `redis.BlockingConnectionPool` (one per node of
a cluster): up to KELTIS_REDIS_POOL_SIZE connections (default 200); a caller
finding them all busy waits up to KELTIS_REDIS_POOL_TIMEOUT_S for one, then gets
`redis.ConnectionError` (the API's 503). A gevent worker of gunicorn runs up to
`--worker-connections` requests at once, each using at most one connection at a time, so
`keltis serve` sizes the pool to that number (cli.serve.gunicorn_command).
"""

from __future__ import annotations

import redis
from redis.cluster import RedisCluster

import settings
from store.core.hot_pool import HotPool

CLUSTER_SCHEMES = ("redis+cluster://", "rediss+cluster://")
POOL_SIZE_ENV = "KELTIS_REDIS_POOL_SIZE"
POOL_TIMEOUT_ENV = "KELTIS_REDIS_POOL_TIMEOUT_S"


class ClusterNeedsQueueRedis(Exception):
    """A Redis Cluster store was configured without a standalone Redis for RQ."""


# A KELTIS_REDIS_POOL_SIZE or KELTIS_REDIS_POOL_TIMEOUT_S that is not a positive number.
BadPoolSetting = settings.SettingsError


def pool_size() -> int:
    """Connections one client's pool opens at most (per node): KELTIS_REDIS_POOL_SIZE."""
    return settings.current().redis_pool_size


def pool_timeout_s() -> float:
    """Seconds a caller waits for a free pooled connection: KELTIS_REDIS_POOL_TIMEOUT_S."""
    return settings.current().redis_pool_timeout_s


def pool_options(options: dict) -> dict:
    """`options` for a client, with the blocking pool's size and timeout (`options` win)."""
    return {"max_connections": pool_size(), "timeout": pool_timeout_s(), **options}


def cluster_url(url: str) -> str:
    """`url` in its explicit form: `redis+cluster://...` when REDIS_CLUSTER=1 asks for it."""
    if settings.current().redis_cluster and url.startswith(("redis://", "rediss://")):
        scheme, rest = url.split("://", 1)
        return f"{scheme}+cluster://{rest}"
    return url


def is_cluster(url: str) -> bool:
    """True when `url` (after `cluster_url`) names a Redis Cluster."""
    return cluster_url(url).startswith(CLUSTER_SCHEMES)


def store_client(url: str, **options) -> redis.Redis | RedisCluster:
    """The game store's client: RedisCluster for a cluster URL, else redis.Redis; both on
    blocking pools sized by `pool_size`."""
    url = cluster_url(url)
    options = pool_options(options)
    if url.startswith(CLUSTER_SCHEMES):
        return RedisCluster.from_url(
            url.replace("+cluster", "", 1),
            connection_pool_class=redis.BlockingConnectionPool,
            **options,
        )
    return standalone_client(url, options)


def standalone_client(url: str, options: dict) -> redis.Redis:
    """A redis.Redis on its own blocking pool (store.core.hot_pool; closed with the client)."""
    return redis.Redis.from_pool(HotPool.from_url(url, **options))


def queue_url(store_url: str, configured: str | None = None) -> str:
    """RQ's Redis: `configured` (RQ_REDIS_URL), else the store's own standalone server."""
    configured = configured or settings.current().rq_redis_url
    if configured:
        return configured
    if is_cluster(store_url):
        raise ClusterNeedsQueueRedis(
            "RQ cannot run on a Redis Cluster: set RQ_REDIS_URL to a standalone Redis"
        )
    return store_url


def queue_client(store_url: str, configured: str | None = None, **options) -> redis.Redis:
    """A client of RQ's Redis (always a standalone server), on a blocking pool."""
    return standalone_client(queue_url(store_url, configured), pool_options(options))
