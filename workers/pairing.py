"""The pairing thread beside a worker: a pairing pass over the rated pool (application.
seek_pass) every KELTIS_PAIR_EVERY_S seconds (1; 0 disables), and at once when a seek opens
(the doorbell keys.seeks_channel). Seeks live in Redis: a restarted worker finds them all."""

from __future__ import annotations

import settings
from application.budget.service import account_budgets
from application.seeks.worker_pass import PairingPass
from store import keys
from workers.periodic import DoorbellThread, game_service


def pairing_thread(redis_url: str) -> PairingThread | None:
    """The thread, or None when KELTIS_PAIR_EVERY_S is 0."""
    every = settings.current().pair_every_s
    return PairingThread(redis_url, every) if every > 0 else None


class PairingThread(DoorbellThread):
    """Runs pairing passes until stopped."""

    def __init__(self, redis_url: str, every_s: float):
        super().__init__("seek-pairing", every_s)
        self.redis_url = redis_url

    def setup(self) -> None:
        service = game_service(self.redis_url, 256)
        self.passes = PairingPass(service, budgets=account_budgets(service.client))
        self.doorbell = service.notices.listen(keys.seeks_channel())

    def tick(self) -> None:
        self.passes.run()

    def teardown(self) -> None:
        if self.doorbell is not None:
            self.doorbell.close()
