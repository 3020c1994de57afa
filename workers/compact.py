"""The compaction thread beside a worker: every `every_s` seconds, compact the logs of games
that finished a while ago (application.operations.compaction)."""

from __future__ import annotations

from application.operations.compaction import compact_due
from workers.periodic import DrainThread


class CompactThread(DrainThread):
    """Drains the set of games waiting for compaction until stopped."""

    def __init__(self, redis_url: str, every_s: float):
        super().__init__("log-compaction", redis_url, every_s)

    def drain(self) -> int:
        return compact_due(self.client)
