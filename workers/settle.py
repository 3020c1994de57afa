"""The settle thread beside a worker: every `every_s` seconds, put the results of finished
rated games into the ladder and fold them into the ratings (application.settle)."""

from __future__ import annotations

import logging
import threading

from application.games import GameService
from application.settle import settle_due
from store.cache import RecordCache
from store.connection import store_client

log = logging.getLogger(__name__)


class SettleThread(threading.Thread):
    """Drains the set of games to settle until stopped."""

    def __init__(self, redis_url: str, every_s: float):
        super().__init__(name="ladder-settle", daemon=True)
        self.redis_url = redis_url
        self.every_s = every_s
        self.stopped = threading.Event()

    def run(self) -> None:
        service = GameService(store_client(self.redis_url), cache=RecordCache(256))
        while not self.stopped.wait(self.every_s):
            try:
                settle_due(service)
            except Exception:  # one broken game or a Redis hiccup must not stop the ladder
                log.exception("settle loop: a pass failed")

    def stop(self) -> None:
        self.stopped.set()
