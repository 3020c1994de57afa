"""The compaction thread beside a worker: every `every_s` seconds, compact the logs of games
that finished a while ago (application.compaction)."""

from __future__ import annotations

import logging
import threading

from application.compaction import compact_due
from store.connection import store_client

log = logging.getLogger(__name__)


class CompactThread(threading.Thread):
    """Drains the set of games waiting for compaction until stopped."""

    def __init__(self, redis_url: str, every_s: float):
        super().__init__(name="log-compaction", daemon=True)
        self.redis_url = redis_url
        self.every_s = every_s
        self.stopped = threading.Event()

    def run(self) -> None:
        client = store_client(self.redis_url)
        while not self.stopped.wait(self.every_s):
            try:
                while compact_due(client):
                    if self.stopped.is_set():
                        break
            except Exception:  # one broken game or a Redis hiccup must not stop the others
                log.exception("compaction loop: a pass failed")

    def stop(self) -> None:
        self.stopped.set()
