"""The pairing thread beside a worker: a pairing pass over the rated pool (application.
seek_pass) every KELTIS_PAIR_EVERY_S seconds (1; 0 disables), and at once when a seek opens
(the doorbell keys.seeks_channel). Seeks live in Redis: a restarted worker finds them all."""

from __future__ import annotations

import os

from application.games import GameService
from application.jobs import BotTurnQueue
from application.seek_pass import PairingPass, budgets_from_env
from store import keys
from store.cache import RecordCache
from store.connection import queue_client, store_client
from store.notify import Listener
from workers.periodic import PeriodicThread

EVERY_ENV = "KELTIS_PAIR_EVERY_S"
DEFAULT_EVERY_S = 1.0


def pairing_thread(redis_url: str) -> PairingThread | None:
    """The thread, or None when KELTIS_PAIR_EVERY_S is 0."""
    every = float(os.environ.get(EVERY_ENV, DEFAULT_EVERY_S))
    return PairingThread(redis_url, every) if every > 0 else None


class PairingThread(PeriodicThread):
    """Runs pairing passes until stopped."""

    def __init__(self, redis_url: str, every_s: float):
        super().__init__("seek-pairing", every_s)
        self.redis_url = redis_url
        self.doorbell: Listener | None = None

    def setup(self) -> None:
        client = store_client(self.redis_url)
        scheduler = BotTurnQueue(queue_client(self.redis_url))
        service = GameService(client, cache=RecordCache(256), scheduler=scheduler)
        self.passes = PairingPass(service, budgets=budgets_from_env(client))
        self.doorbell = service.notices.listen(keys.seeks_channel())

    def pause(self) -> None:
        """Wait on the doorbell (a seek opened) or the period."""
        self.doorbell.wait(self.every_s)

    def wake(self) -> None:
        if self.doorbell is not None:
            self.doorbell.deliver(None)

    def tick(self) -> None:
        self.passes.run()

    def teardown(self) -> None:
        if self.doorbell is not None:
            self.doorbell.close()
