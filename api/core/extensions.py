"""The Redis clients and the game service of one app (shared by its threads)."""

from __future__ import annotations

from flask import Flask, current_app

from application.games.service import GameService
from application.operations.jobs import BotTurnQueue
from store.core.connection import is_cluster, queue_client, queue_url, store_client

EXTENSION = "keltis"
QUEUE_EXTENSION = "keltis_queue"


def init_app(app: Flask) -> None:
    """Attach Redis connection pools (store, and RQ's queue) and a GameService to `app`.

    REDIS_URL may name a Redis Cluster (store.core.connection); RQ_REDIS_URL names the
    standalone Redis of the bot queue (default: the store's own server).
    """
    url, timeouts = app.config["REDIS_URL"], {"socket_timeout": 5, "socket_connect_timeout": 2}
    client = app.config.get("REDIS_CLIENT") or store_client(url, **timeouts)
    queue = client
    if app.config.get("RQ_REDIS_URL"):
        queue = queue_client(url, app.config["RQ_REDIS_URL"], **timeouts)
    elif app.config["ENQUEUE_BOTS"] and is_cluster(url):
        queue_url(url)  # raises ClusterNeedsQueueRedis: RQ needs a standalone Redis
    scheduler = BotTurnQueue(queue) if app.config["ENQUEUE_BOTS"] else None
    app.extensions[EXTENSION] = GameService(client, scheduler=scheduler)
    app.extensions[QUEUE_EXTENSION] = queue


def service() -> GameService:
    """The game service of the current app."""
    return current_app.extensions[EXTENSION]


def queue():
    """RQ's Redis client of the current app (tournament jobs go there)."""
    return current_app.extensions[QUEUE_EXTENSION]
