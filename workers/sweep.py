"""The periodic sweep: re-enqueue bot turns that were lost (a worker died mid-job)."""

from __future__ import annotations

import logging
import threading
import time

import redis

from store import index
from store.botqueue import enqueue_bot_turn
from store.connection import queue_client, store_client
from store.eventstore import EventStore

log = logging.getLogger(__name__)


def sweep(
    client: redis.Redis,
    stale_after_s: float,
    now_ms: int | None = None,
    queue: redis.Redis | None = None,
) -> list[str]:
    """Re-enqueue the bot turn of every game whose bot has been due too long; their ids.

    `client` is the game store's Redis, `queue` RQ's (default: the same server).
    """
    now_ms = int(time.time() * 1000) if now_ms is None else now_ms
    store = EventStore(client)
    revived = []
    for game_id in index.bot_turns_due(client, now_ms - int(stale_after_s * 1000)):
        if enqueue_bot_turn(queue or client, game_id, store.length(game_id), retry=True):
            revived.append(game_id)
    return revived


class SweepThread(threading.Thread):
    """Runs `sweep` every `every_s` seconds until stopped."""

    def __init__(self, redis_url: str, every_s: float, stale_after_s: float):
        super().__init__(name="bot-turn-sweep", daemon=True)
        self.redis_url = redis_url
        self.every_s = every_s
        self.stale_after_s = stale_after_s
        self.stopped = threading.Event()

    def run(self) -> None:
        client = store_client(self.redis_url)
        queue = queue_client(self.redis_url)
        while not self.stopped.wait(self.every_s):
            try:
                revived = sweep(client, self.stale_after_s, queue=queue)
            except redis.RedisError as error:
                log.warning("sweep skipped: %s", error)
                continue
            if revived:
                log.warning("re-enqueued lost bot turns of %d game(s)", len(revived))
            _sweep_tournaments(client, self.stale_after_s, queue)

    def stop(self) -> None:
        self.stopped.set()


def _sweep_tournaments(client: redis.Redis, stale_after_s: float, queue: redis.Redis) -> None:
    """Re-enqueue lost tournament game jobs (workers.tournaments owns the details)."""
    from workers.tournaments import sweep_tournaments

    try:
        revived = sweep_tournaments(client, stale_after_s, queue=queue)
    except redis.RedisError as error:
        log.warning("tournament sweep skipped: %s", error)
        return
    if revived:
        log.warning("re-enqueued %d lost tournament game job(s)", len(revived))
