"""A per-client rate limit (fixed windows of the `limits` library), counted in the service's
own Redis.

One application-wide limit per client address, shared by all endpoints except the health
check and the API documents. Configuration: KELTIS_RATE_LIMIT (a limits string such as
"20 per second;600 per minute", or "off"); RATELIMIT_* keys in test_config override it.
Apps made with TESTING=True have no limit unless RATELIMIT_ENABLED is given.
Behind a reverse proxy, let it set X-Forwarded-For and wrap the app in werkzeug's ProxyFix,
or every client shares the proxy's address.

A request is counted before it is served (a Lua INCR + EXPIRE, the `limits` fixed window);
a refused one gets 429 in the error shape with Retry-After. The endpoints that read their
game first (`RIDING_ENDPOINTS`) send that count in the read's own round trip when the
counters live in the store's standalone Redis: the count is checked as soon as the read
returns, before anything is decided; a move decided on the process's cached copy of its
game is counted by the append script itself, which refuses it above the limit. A request
that fails before reading its game is counted (and refused when over the limit) as its
answer leaves.
"""

from __future__ import annotations

import logging
import math
import os

from flask import Flask, g, request
from limits import RateLimitItem, parse_many
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter
from redis.cluster import RedisCluster

from api import extensions
from api.errors import ApiError, error_response
from store.connection import cluster_url
from store.eventstore import Gate

DEFAULT_LIMIT = "1000 per second"
OFF = "off"
EXEMPT_PATHS = frozenset({"/healthz", "/openapi.yaml", "/docs"})
RIDING_ENDPOINTS = frozenset({"games.post_move", "games.get_moves"})
KEY_PREFIX = "keltis:ratelimit"
SCOPE = "global"  # one limit shared by every endpoint
LOCAL_ADDRESS = "127.0.0.1"  # the key of a request without a remote address
EXTENSION = "keltis_rate_limit"
# The fixed-window counter of `limits` (its incr_expire.lua): INCRBY, EXPIRE when new.
INCR_EXPIRE = """
local current = redis.call("incrby", KEYS[1], tonumber(ARGV[2]))
if tonumber(current) == tonumber(ARGV[2]) then
  redis.call("expire", KEYS[1], ARGV[1])
end
return current
"""

logger = logging.getLogger(__name__)


def storage_uri(redis_url: str) -> str:
    """The `limits` storage URI for the service's Redis (the same server and database).

    `redis://`, `rediss://` and `redis+cluster://` are understood by `limits` as they are;
    a `unix://` socket becomes `redis+unix://`.
    """
    redis_url = cluster_url(redis_url)
    if redis_url.startswith("unix://"):
        return "redis+unix://" + redis_url.removeprefix("unix://")
    return redis_url


class RateLimited(ApiError):
    """The client is over `limit` (429, Retry-After: the limit's window)."""

    def __init__(self, limit: RateLimitItem):
        super().__init__(429, "rate_limited", f"too many requests: {limit}")
        self.retry_after_s = math.ceil(limit.get_expiry())


class RateLimit:
    """The limits of one app and where they are counted."""

    def __init__(self, limits: list[RateLimitItem], uri: str, prefix: str, swallow: bool):
        self.limits = sorted(limits)
        self.storage = storage_from_string(uri)
        self.counter = FixedWindowRateLimiter(self.storage)
        self.prefix = prefix
        self.swallow = swallow
        self.can_ride = False  # set by init_app once the store's Redis is known

    def hit(self, client: str) -> None:
        """Count a request of `client` now; RateLimited when over a limit."""
        try:
            refused = next(
                (
                    lim
                    for lim in self.limits
                    if not self.counter.hit(lim, self.prefix, client, SCOPE)
                ),
                None,
            )
        except Exception as error:
            self.failed(error)
            return
        if refused is not None:
            raise RateLimited(refused)

    def failed(self, error: Exception) -> None:
        """Fail open: without its counters the request goes on (the store answers 503)."""
        if not self.swallow:
            raise error
        logger.error("the rate limit could not be checked; the request goes on", exc_info=error)


class CountWithLoad:
    """A request's count, sent in the round trip of its game's load or append (a store
    Rider)."""

    def __init__(self, rate_limit: RateLimit, client: str):
        self.rate_limit = rate_limit
        self.client = client
        self.answered = False

    def _key(self) -> str:
        limit = self.rate_limit.limits[0]
        return self.rate_limit.storage.prefixed_key(
            limit.key_for(self.rate_limit.prefix, self.client, SCOPE)
        )

    def queue(self, pipe) -> None:
        pipe.eval(INCR_EXPIRE, 1, self._key(), self.rate_limit.limits[0].get_expiry(), 1)

    def gate(self) -> Gate:
        """The same count, made by an append script that refuses above the limit."""
        limit = self.rate_limit.limits[0]
        return Gate(self._key(), limit.get_expiry(), limit.amount)

    def answer(self, replies: list) -> None:
        self.answered = True
        (count,) = replies
        if isinstance(count, Exception):
            self.rate_limit.failed(count)
            return
        limit = self.rate_limit.limits[0]
        if int(count) > limit.amount:
            raise RateLimited(limit)


def rider() -> CountWithLoad | None:
    """The current request's count, to send with its game's load (None: already counted)."""
    return g.get("rate_count")


def init_app(app: Flask) -> None:
    """Check the limit on every request of `app` (settings already in app.config win)."""
    setting = os.environ.get("KELTIS_RATE_LIMIT", DEFAULT_LIMIT).strip()
    switched_off = setting.lower() == OFF
    app.config.setdefault("RATELIMIT_ENABLED", not (switched_off or app.testing))
    app.config.setdefault("RATELIMIT_APPLICATION", DEFAULT_LIMIT if switched_off else setting)
    app.config.setdefault("RATELIMIT_STORAGE_URI", storage_uri(app.config["REDIS_URL"]))
    app.config.setdefault("RATELIMIT_KEY_PREFIX", KEY_PREFIX)
    # Fail open: if Redis is unreachable the request goes on; the store itself answers 503
    # while Redis is down.
    app.config.setdefault("RATELIMIT_SWALLOW_ERRORS", True)

    @app.errorhandler(RateLimited)
    def _limited(error: RateLimited):
        response = error_response(error.status, error.code, error.message)
        response.headers["Retry-After"] = str(error.retry_after_s)
        return response

    if not app.config["RATELIMIT_ENABLED"]:
        return
    rate_limit = RateLimit(
        parse_many(app.config["RATELIMIT_APPLICATION"]),
        app.config["RATELIMIT_STORAGE_URI"],
        app.config["RATELIMIT_KEY_PREFIX"],
        app.config["RATELIMIT_SWALLOW_ERRORS"],
    )
    app.extensions[EXTENSION] = rate_limit
    store = app.extensions[extensions.EXTENSION].client
    # Riding needs the counters in the store's own standalone Redis, and a single limit
    # (with several, a refused request must not count against the later ones).
    rate_limit.can_ride = (
        len(rate_limit.limits) == 1
        and not app.config.get("REDIS_CLIENT")
        and app.config["RATELIMIT_STORAGE_URI"] == storage_uri(app.config["REDIS_URL"])
        and not isinstance(store, RedisCluster)
    )

    @app.before_request
    def _count_request():
        if request.path in EXEMPT_PATHS:
            return
        client = request.remote_addr or LOCAL_ADDRESS
        if rate_limit.can_ride and request.endpoint in RIDING_ENDPOINTS:
            g.rate_count = CountWithLoad(rate_limit, client)
            return
        rate_limit.hit(client)

    @app.after_request
    def _count_unread_request(response):
        count = g.pop("rate_count", None)
        if count is None or count.answered:
            return response
        try:
            rate_limit.hit(count.client)  # the request failed before its game was read
        except RateLimited as refused:
            return _limited(refused)
        return response
