"""A per-client rate limit (Flask-Limiter), counted in the service's own Redis.

One application-wide limit per client address, shared by all endpoints except the health
check and the API documents. Configuration: KELTIS_RATE_LIMIT (a limits string such as
"20 per second;600 per minute", or "off"); RATELIMIT_* keys in test_config override it.
Apps made with TESTING=True have no limit unless RATELIMIT_ENABLED is given.
Behind a reverse proxy, let it set X-Forwarded-For and wrap the app in werkzeug's ProxyFix,
or every client shares the proxy's address.
"""

from __future__ import annotations

import math
import os

from flask import Flask, request
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address

from store.connection import cluster_url

DEFAULT_LIMIT = "1000 per second"
OFF = "off"
EXEMPT_PATHS = frozenset({"/healthz", "/openapi.yaml", "/docs"})
KEY_PREFIX = "keltis:ratelimit"


def storage_uri(redis_url: str) -> str:
    """The `limits` storage URI for the service's Redis (the same server and database).

    `redis://`, `rediss://` and `redis+cluster://` are understood by `limits` as they are;
    a `unix://` socket becomes `redis+unix://`.
    """
    redis_url = cluster_url(redis_url)
    if redis_url.startswith("unix://"):
        return "redis+unix://" + redis_url.removeprefix("unix://")
    return redis_url


def _exempt() -> bool:
    return request.path in EXEMPT_PATHS


def init_app(app: Flask) -> None:
    """Attach a Limiter to `app` (settings already in app.config take precedence)."""
    setting = os.environ.get("KELTIS_RATE_LIMIT", DEFAULT_LIMIT).strip()
    switched_off = setting.lower() == OFF
    app.config.setdefault("RATELIMIT_ENABLED", not (switched_off or app.testing))
    app.config.setdefault("RATELIMIT_APPLICATION", DEFAULT_LIMIT if switched_off else setting)
    app.config.setdefault("RATELIMIT_STORAGE_URI", storage_uri(app.config["REDIS_URL"]))
    # The X-RateLimit-* headers cost two more Redis round trips on every request (about a
    # third of a move's server time); a refused request still gets Retry-After (below).
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", False)
    app.config.setdefault("RATELIMIT_KEY_PREFIX", KEY_PREFIX)
    app.config.setdefault("RATELIMIT_APPLICATION_EXEMPT_WHEN", _exempt)
    # Fail open: if Redis dies between the limit check and the rate-limit headers, the
    # request must not become a 500; the store itself answers 503 while Redis is down.
    app.config.setdefault("RATELIMIT_SWALLOW_ERRORS", True)
    limiter = Limiter(key_func=get_remote_address)
    limiter.init_app(app)

    @app.errorhandler(RateLimitExceeded)
    def _limited(error: RateLimitExceeded):
        from api.errors import error_response

        response = error_response(429, "rate_limited", f"too many requests: {error.description}")
        if "Retry-After" not in response.headers:
            # The window of the exceeded limit: after it, a fixed-window counter is reset.
            response.headers["Retry-After"] = str(math.ceil(error.limit.limit.get_expiry()))
        return response
