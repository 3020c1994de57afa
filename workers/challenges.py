"""The challenge thread beside a worker: every `every_s` seconds, expire the open challenges
past their expiry, create the games of accepted challenges cut short, advance the two-board
matches (application.tournaments.matches), and ask the webhooks of challenged accounts (on a small
pool
of threads, so a slow webhook holds one pool thread, never the pass)."""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor

from application.challenges.budget import charger_from_env
from application.challenges.service import Challenges, Limits
from application.challenges.webhooks import ask
from application.tournaments import matches
from application.webhooks.policy import policy_from_env
from workers.periodic import PeriodicThread, game_service

log = logging.getLogger(__name__)

MAX_CALLS = 8  # challenge webhook calls in flight per worker process


class ChallengeThread(PeriodicThread):
    """Runs the challenges' pass until stopped."""

    def __init__(self, redis_url: str, every_s: float = 0.2, max_calls: int = MAX_CALLS):
        super().__init__("challenges", every_s)
        self.redis_url = redis_url
        self.max_calls = max_calls
        self.lock = threading.Lock()
        self.in_flight = 0

    def setup(self) -> None:
        service = game_service(self.redis_url, 256)
        self.challenges = Challenges(service, Limits.from_env(), charger_from_env(service.client))
        self.policy = policy_from_env(service.client)
        self.pool = ThreadPoolExecutor(self.max_calls, thread_name_prefix="challenge-call")

    def tick(self) -> None:
        challenges = self.challenges
        challenges.expire_due()
        challenges.repair_accepted()
        matches.advance_all(challenges.service)
        with self.lock:
            free = self.max_calls - self.in_flight
        if free <= 0:
            return
        for challenge_id, folded in challenges.store.claim_calls(challenges.service.clock(), free):
            with self.lock:
                self.in_flight += 1
            self.pool.submit(self._ask, challenge_id, folded)

    def _ask(self, challenge_id: str, folded: str) -> None:
        try:
            ask(self.challenges, self.policy, challenge_id, folded)
            self.challenges.store.call_done(challenge_id, folded)
        except Exception:  # one broken call must not stop the others
            log.exception("challenge %s: the webhook call of %s failed", challenge_id, folded)
        finally:
            with self.lock:
                self.in_flight -= 1

    def teardown(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
