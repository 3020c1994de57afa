"""A per-client rate limit (fixed windows; limits strings parsed by the `limits` library),
counted before a request is served: in the process, and summed over every web process in
the service's own Redis in the background (api.core.ratecount).

One application-wide limit per client address, shared by all endpoints except the health
check and the API documents. Configuration: KELTIS_RATE_LIMIT (a limits string such as
"20 per second;600 per minute", or "off"); RATELIMIT_* keys in test_config override it.
Apps made with TESTING=True have no limit unless RATELIMIT_ENABLED is given.
Behind a reverse proxy, let it set X-Forwarded-For and wrap the app in werkzeug's ProxyFix,
or every client shares the proxy's address.

The count costs no round trip of its own: each process adds its counts to the shared
counters every 50 ms (one pipelined round trip for all its clients), so a limit is exact
within a process and, across N processes, may let through one sync interval's requests per
other process beyond it. A refused request gets 429 in the error shape with Retry-After.
The counters are written with the store's own client (its pool, sized to the server's
connections, store.core.connection). The quotas (api.core.quotas) are exact: counted in Redis with
each request they limit, which are rare.
"""

from __future__ import annotations

from flask import Flask, request
from limits import parse_many
from limits.storage import RedisStorage, Storage, storage_from_string
from redis.cluster import RedisCluster

import settings
from api.core import extensions
from api.core.ratecount import RateLimit, WindowCounts
from store.core.connection import cluster_url

DEFAULT_LIMIT = "1000 per second"
OFF = "off"
KEY_PREFIX = "keltis:ratelimit"
EXTENSION = "keltis_rate_limit"


def storage_uri(redis_url: str) -> str:
    """The `limits` storage URI for the service's Redis (the same server and database).

    `redis://`, `rediss://` and `redis+cluster://` are understood by `limits` as they are;
    a `unix://` socket becomes `redis+unix://`.
    """
    redis_url = cluster_url(redis_url)
    if redis_url.startswith("unix://"):
        return "redis+unix://" + redis_url.removeprefix("unix://")
    return redis_url


def counter_storage(app: Flask, uri: str) -> Storage:
    """Counters' storage at `uri` (the rate limit's, the quotas'): the store's own connection
    pool when they share a standalone server, else a storage of their own."""
    store = app.extensions[extensions.EXTENSION].client
    shared = uri == storage_uri(app.config["REDIS_URL"]) and not isinstance(store, RedisCluster)
    if shared:
        return RedisStorage(uri, connection_pool=store.connection_pool)
    return storage_from_string(uri)


def init_app(app: Flask) -> None:
    """Check the limit on every request of `app` (settings already in app.config win)."""
    setting = settings.current().rate_limit
    switched_off = setting.lower() == OFF
    app.config.setdefault("RATELIMIT_ENABLED", not (switched_off or app.testing))
    app.config.setdefault("RATELIMIT_APPLICATION", DEFAULT_LIMIT if switched_off else setting)
    app.config.setdefault("RATELIMIT_KEY_PREFIX", KEY_PREFIX)
    if not app.config["RATELIMIT_ENABLED"]:
        return
    counts = WindowCounts(
        app.extensions[extensions.EXTENSION].client,
        parse_many(app.config["RATELIMIT_APPLICATION"]),
        app.config["RATELIMIT_KEY_PREFIX"],
    )
    rate_limit = RateLimit(counts)
    app.extensions[EXTENSION] = rate_limit

    @app.before_request
    def _count_request():
        rate_limit.count(request.environ)
