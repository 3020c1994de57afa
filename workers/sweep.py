"""The threads beside a worker: the sweep (every few seconds, requeue lost bot turns and lost
tournament game jobs, advance open tournaments, and expire games that waited too long for
seats: application.operations.sweep), and the deadline loop (every ~150 ms, time out the turns whose
deadline passed: application.games.clocks, then advance the open tournaments a game of which
finished: application.tournaments.open_tournaments)."""

from __future__ import annotations

import logging

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


class SweepThread(PeriodicThread):
    """Runs the sweeps every `every_s` seconds until stopped; a sweep that cannot reach Redis
    is skipped with a warning and the others still run."""

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
        client = self.client
        for name, sweep in (("bot turn", sweep_bot_turns), ("tournament", sweep_tournaments)):
            try:
                revived = sweep(client, self.stale_after_s, queue=self.queue)
            except redis.RedisError as error:
                log.warning("%s sweep skipped: %s", name, error)
                continue
            if revived:
                log.warning("re-enqueued %d lost %s job(s)", len(revived), name)
        try:
            open_tournaments.advance_running(self.service, TournamentStore(client))
        except redis.RedisError as error:
            log.warning("open tournament sweep skipped: %s", error)
        try:
            expired = expire_waiting_games(client)
        except redis.RedisError as error:
            log.warning("expiry sweep skipped: %s", error)
            return
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
