"""The webhook thread beside a worker: claims the due turns of account seats (the
`account_turns` index in Redis) and calls their webhooks concurrently on a pool of threads,
so a webhook that takes its time holds one pool thread, not the worker
(application.bots.webhook_turns).

Every call is bounded by KELTIS_WEBHOOK_CALL_TIMEOUT_S whatever the game's clock, and one
account holds at most KELTIS_WEBHOOK_CALLS_PER_ACCOUNT of the pool's threads at once (its
other turns wait, holding none), so a webhook that never answers cannot starve the others.
A killed worker loses nothing: its claims run out and another worker takes the turns."""

from __future__ import annotations

import logging
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import settings
from application.bots.webhook_turns import WebhookCaller
from application.webhooks.policy import policy_from_env
from store import keys
from store.bots.account_turns import AccountTurns
from store.core.clock import now_ms
from workers.periodic import DoorbellThread, game_service

log = logging.getLogger(__name__)

MAX_CALLS = 32  # webhook calls in flight per worker process
CLAIM_MS = 15_000  # a claim before the call extends it to the call's end
IDLE_HOLD_MS = 30_000  # an account without a webhook to move: look again after this
ACCOUNT_BUSY_MS = 500  # an account at its limit of calls: look at its turn again after this


def calls_per_account() -> int:
    """KELTIS_WEBHOOK_CALLS_PER_ACCOUNT (default 8): one account's calls at once."""
    return settings.current().webhook_calls_per_account


class Claim:
    """This thread's claim on a game's turn in the index, ending at `until` (ms)."""

    def __init__(self, turns: AccountTurns, game_id: str, until: int):
        self.turns, self.game_id, self.until = turns, game_id, until

    def extend(self, until: int) -> bool:
        """Hold the turn until `until`; False when the claim is gone (the game moved on)."""
        held = self.turns.hold_until(self.game_id, self.until, until)
        if held:
            self.until = until
        return held


class WebhookThread(DoorbellThread):
    """Every `every_s` seconds, at once when a call finishes and when the commit of an
    account's turn rings the doorbell (keys.account_turns_channel), claims as many due
    account turns as it has free pool threads and calls their webhooks."""

    def __init__(
        self,
        redis_url: str,
        every_s: float = 0.05,
        max_calls: int = MAX_CALLS,
        per_account: int | None = None,
        call_timeout_s: float | None = None,
    ):
        super().__init__("webhook-turns", every_s)
        self.redis_url = redis_url
        self.max_calls = max_calls
        self.per_account = calls_per_account() if per_account is None else per_account
        self.call_timeout_s = call_timeout_s
        self.lock = threading.Lock()
        self.in_flight = 0
        self.by_account: Counter[str] = Counter()

    def setup(self) -> None:
        self.service = game_service(self.redis_url, 1024)
        self.turns = AccountTurns(self.service.client)
        policy = policy_from_env(self.service.client)
        self.caller = WebhookCaller(self.service, policy, self.call_timeout_s)
        self.pool = ThreadPoolExecutor(self.max_calls, thread_name_prefix="webhook-call")
        self.doorbell = self.service.notices.listen(keys.account_turns_channel())

    def tick(self) -> None:
        """Claim as many due turns as there are free pool threads and call their webhooks
        (Redis away for a moment: the pass fails, the claims wait in Redis)."""
        with self.lock:
            free = self.max_calls - self.in_flight
        now = now_ms()
        for game_id in self.turns.claim(now, CLAIM_MS, free):
            with self.lock:
                self.in_flight += 1
            self.pool.submit(self._call, Claim(self.turns, game_id, now + CLAIM_MS))

    def teardown(self) -> None:
        self.doorbell.close()
        self.pool.shutdown(wait=False, cancel_futures=True)

    def _call(self, claim: Claim) -> None:
        try:
            turn = self.caller.prepare(claim.game_id)
            if turn is None:
                claim.extend(now_ms() + IDLE_HOLD_MS)
                return
            name = turn.account.folded
            with self.lock:
                admitted = self.by_account[name] < self.per_account
                if admitted:
                    self.by_account[name] += 1
            if not admitted:  # the account's calls hold their share: wait, holding no thread
                claim.extend(now_ms() + ACCOUNT_BUSY_MS)
                return
            try:
                outcome = self.caller.deliver(turn, claim.extend)
            finally:
                with self.lock:
                    self.by_account[name] -= 1
                    if not self.by_account[name]:
                        del self.by_account[name]
            if outcome.retry_ms is not None:
                claim.extend(outcome.retry_ms)
        except Exception:  # one broken game must not stop the webhooks of the others
            log.exception("webhook call of game %s failed", claim.game_id)
        finally:
            with self.lock:
                self.in_flight -= 1
            self.wake()
