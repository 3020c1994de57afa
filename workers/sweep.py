"""The threads beside a worker: the sweep (every few seconds, requeue lost bot turns and lost
tournament game jobs, advance open tournaments, and expire games that waited too long for
seats: application.operations.sweep), and the deadline loop (every ~150 ms, time out the turns whose
deadline passed: application.games.clocks, then advance the open tournaments a game of which
finished: application.tournaments.open_tournaments)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

import redis

from application.games.clocks import time_out_due
from application.games.service import GameService
from application.operations.jobs import BotTurnQueue
from application.operations.sweep import expire_waiting_games, sweep_bot_turns, sweep_tournaments
from application.tournaments import open_tournaments
from store.core.cache import RecordCache
from store.core.connection import queue_client, store_client
from store.tournaments.records import TournamentStore
from workers.periodic import PeriodicThread, game_service

log = logging.getLogger(__name__)
T = TypeVar("T")


def _guarded(what: str, sweep: Callable[[], T]) -> T | None:
    """`sweep()`, or None when it fails (logged; only a warning when Redis is away)."""
    try:
        return sweep()
    except redis.RedisError as error:
        log.warning("%s skipped: %s", what, error)
    except Exception:
        log.exception("%s failed", what)
    return None


class SweepThread(PeriodicThread):
    """Runs the sweeps every `every_s` seconds until stopped; a sweep that fails is logged
    and the others still run."""

    def __init__(self, redis_url: str, every_s: float, stale_after_s: float):
        super().__init__("bot-turn-sweep", every_s)
        self.redis_url = redis_url
        self.stale_after_s = stale_after_s

    def setup(self) -> None:
        self.client = store_client(self.redis_url)
        self.queue = queue_client(self.redis_url)
        scheduler = BotTurnQueue(self.queue)
        self.service = GameService(self.client, cache=RecordCache(256), scheduler=scheduler)

    def tick(self) -> None:
        """Each sweep on its own: one that fails (Redis away, a job RQ cannot read) is
        logged and the others still run in this pass."""
        client = self.client
        for name, sweep in (("bot turn", sweep_bot_turns), ("tournament", sweep_tournaments)):
            revived = _guarded(
                f"{name} sweep",
                lambda sweep=sweep: sweep(client, self.stale_after_s, queue=self.queue),
            )
            if revived:
                log.warning("re-enqueued %d lost %s job(s)", len(revived), name)
        _guarded(
            "open tournament sweep",
            lambda: open_tournaments.advance_running(self.service, TournamentStore(client)),
        )
        expired = _guarded("expiry sweep", lambda: expire_waiting_games(client))
        if expired:
            log.info("expired %d game(s) that waited too long for seats", len(expired))


class DeadlineThread(PeriodicThread):
    """Every `every_s` seconds, times out the games whose deadline passed (the `deadlines`
    index in Redis: a killed worker loses nothing, the entry stays until the game moves),
    then advances the open tournaments a game of which finished."""

    def __init__(self, redis_url: str, every_s: float):
        super().__init__("turn-deadlines", every_s)
        self.redis_url = redis_url

    def setup(self) -> None:
        self.service = game_service(self.redis_url, 1024)
        self.tournaments = TournamentStore(self.service.client)

    def tick(self) -> None:
        try:
            time_out_due(self.service)
        finally:  # a failed clock pass must not hold up the tournaments
            open_tournaments.advance_due(self.service, self.tournaments)
