"""The settle thread beside a worker: every `every_s` seconds, put the results of finished
rated games into the ladder and fold them into the ratings (application.games.settle)."""

from __future__ import annotations

from application.games.service import GameService
from application.games.settle import settle_due
from store.core.cache import RecordCache
from store.core.connection import store_client
from workers.periodic import PeriodicThread


class SettleThread(PeriodicThread):
    """Drains the set of games to settle until stopped."""

    def __init__(self, redis_url: str, every_s: float):
        super().__init__("ladder-settle", every_s)
        self.redis_url = redis_url

    def setup(self) -> None:
        self.service = GameService(store_client(self.redis_url), cache=RecordCache(256))

    def tick(self) -> None:
        settle_due(self.service)
