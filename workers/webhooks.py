"""The webhook thread beside a worker: claims the due turns of account seats (the
`account_turns` index in Redis) and calls their webhooks concurrently on a pool of threads,
so a webhook that takes its time holds one pool thread, not the worker (application.webhooks).
A killed worker loses nothing: its claims run out and another worker takes the turns."""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor

from application.games import GameService
from application.jobs import BotTurnQueue
from application.webhooks import SKIPPED, call_turn
from application.webhooks_policy import WebhookPolicy, allow_from_env
from store import keys
from store.account_turns import AccountTurns
from store.cache import RecordCache
from store.clock import now_ms
from store.connection import queue_client, store_client
from store.notify import Listener
from workers.periodic import PeriodicThread

log = logging.getLogger(__name__)

MAX_CALLS = 32  # webhook calls in flight per worker process
CLAIM_MS = 15_000  # a claim before the call extends it to the turn's deadline
IDLE_HOLD_MS = 30_000  # an account without a webhook to move: look again after this


class WebhookThread(PeriodicThread):
    """Every `every_s` seconds, at once when a call finishes and when the commit of an
    account's turn rings the doorbell (keys.account_turns_channel), claims as many due
    account turns as it has free pool threads and calls their webhooks."""

    def __init__(self, redis_url: str, every_s: float = 0.05, max_calls: int = MAX_CALLS):
        super().__init__("webhook-turns", every_s)
        self.redis_url = redis_url
        self.max_calls = max_calls
        self.doorbell: Listener | None = None
        self.lock = threading.Lock()
        self.in_flight = 0

    def setup(self) -> None:
        client = store_client(self.redis_url)
        scheduler = BotTurnQueue(queue_client(self.redis_url))
        self.service = GameService(client, cache=RecordCache(1024), scheduler=scheduler)
        self.turns = AccountTurns(client)
        self.policy = WebhookPolicy(allow_from_env())
        self.pool = ThreadPoolExecutor(self.max_calls, thread_name_prefix="webhook-call")
        self.doorbell = self.service.notices.listen(keys.account_turns_channel())

    def pause(self) -> None:
        """Wait on the doorbell: rung by Redis pub/sub, by a finished call and by `wake()`."""
        self.doorbell.wait(self.every_s)

    def wake(self) -> None:
        if self.doorbell is not None:
            self.doorbell.deliver(None)

    def tick(self) -> None:
        """Claim as many due turns as there are free pool threads and call their webhooks
        (Redis away for a moment: the pass fails, the claims wait in Redis)."""
        with self.lock:
            free = self.max_calls - self.in_flight
        now = now_ms()
        for game_id in self.turns.claim(now, CLAIM_MS, free):
            with self.lock:
                self.in_flight += 1
            self.pool.submit(self._call, game_id, now + CLAIM_MS)

    def teardown(self) -> None:
        self.doorbell.close()
        self.pool.shutdown(wait=False, cancel_futures=True)

    def _call(self, game_id: str, claimed: int) -> None:
        def hold(until_ms: int) -> None:
            self.turns.hold_until(game_id, claimed, until_ms)

        try:
            if call_turn(self.service, self.policy, game_id, hold) == SKIPPED:
                self.turns.hold_until(game_id, claimed, now_ms() + IDLE_HOLD_MS)
        except Exception:  # one broken game must not stop the webhooks of the others
            log.exception("webhook call of game %s failed", game_id)
        finally:
            with self.lock:
                self.in_flight -= 1
            self.wake()
