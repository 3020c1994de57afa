"""The Redis client and the game service of one app (shared by its threads)."""

from __future__ import annotations

import redis
from flask import Flask, current_app

from store.service import GameService

EXTENSION = "keltis"


def init_app(app: Flask) -> None:
    """Attach a Redis connection pool and a GameService to `app`."""
    client = app.config.get("REDIS_CLIENT") or redis.Redis.from_url(
        app.config["REDIS_URL"], socket_timeout=5, socket_connect_timeout=2
    )
    app.extensions[EXTENSION] = GameService(client, enqueue_bots=app.config["ENQUEUE_BOTS"])


def service() -> GameService:
    """The game service of the current app."""
    return current_app.extensions[EXTENSION]
