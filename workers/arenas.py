"""The arena thread beside a worker: every `every_s` seconds (KELTIS_ARENA_EVERY_S, 0.2),
one pass over the live arenas (application.arenas.service): record the games that are over, seat
the waiting bots in new games, end the arenas whose window is over. Every worker runs it;
the claims in Redis keep racing passes from seating a bot twice."""

from __future__ import annotations

import logging

import redis

import settings
from application.arenas.worker_pass import ArenaPass
from workers.periodic import PeriodicThread, game_service

log = logging.getLogger(__name__)


class ArenaThread(PeriodicThread):
    """Runs the arena pass until stopped."""

    def __init__(self, redis_url: str, every_s: float | None = None):
        every = settings.current().arena_every_s if every_s is None else every_s
        super().__init__("arena-pass", every)
        self.redis_url = redis_url
        self.failing = False

    def setup(self) -> None:
        self.arenas = ArenaPass(game_service(self.redis_url, 256))

    def tick(self) -> None:
        try:
            self.arenas.run()
        except redis.RedisError as error:  # said once, not five times a second
            if not self.failing:
                log.warning("arena pass skipped: %s", error)
            self.failing = True
            return
        self.failing = False
