"""The compaction thread beside a worker: every `every_s` seconds, compact the logs of games
that finished a while ago (application.compaction)."""

from __future__ import annotations

from application.compaction import compact_due
from store.connection import store_client
from workers.periodic import PeriodicThread


class CompactThread(PeriodicThread):
    """Drains the set of games waiting for compaction until stopped."""

    def __init__(self, redis_url: str, every_s: float):
        super().__init__("log-compaction", every_s)
        self.redis_url = redis_url

    def setup(self) -> None:
        self.client = store_client(self.redis_url)

    def tick(self) -> None:
        while compact_due(self.client) and not self.stopped.is_set():
            pass
