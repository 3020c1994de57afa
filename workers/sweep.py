"""The threads beside a worker: the sweep (every few seconds, requeue lost bot turns and lost
tournament game jobs, advance open tournaments, and expire games that waited too long for
seats: application.sweep), and the deadline loop (every ~150 ms, time out the turns whose
deadline passed: application.clocks, then advance the open tournaments a game of which
finished: application.open_tournaments)."""

from __future__ import annotations

import logging
import threading

import redis

from application import open_tournaments
from application.clocks import time_out_due
from application.games import GameService
from application.jobs import BotTurnQueue
from application.sweep import expire_waiting_games, sweep_bot_turns, sweep_tournaments
from store.cache import RecordCache
from store.connection import queue_client, store_client
from store.tournaments import TournamentStore
from workers.periodic import PeriodicThread

log = logging.getLogger(__name__)


class SweepThread(threading.Thread):
    """Runs the sweeps every `every_s` seconds until stopped."""

    def __init__(self, redis_url: str, every_s: float, stale_after_s: float):
        super().__init__(name="bot-turn-sweep", daemon=True)
        self.redis_url = redis_url
        self.every_s = every_s
        self.stale_after_s = stale_after_s
        self.stopped = threading.Event()

    def run(self) -> None:
        client = store_client(self.redis_url)
        queue = queue_client(self.redis_url)
        service = GameService(client, cache=RecordCache(256), scheduler=BotTurnQueue(queue))
        while not self.stopped.wait(self.every_s):
            for name, sweep in (("bot turn", sweep_bot_turns), ("tournament", sweep_tournaments)):
                try:
                    revived = sweep(client, self.stale_after_s, queue=queue)
                except redis.RedisError as error:
                    log.warning("%s sweep skipped: %s", name, error)
                    continue
                if revived:
                    log.warning("re-enqueued %d lost %s job(s)", len(revived), name)
            try:
                open_tournaments.advance_running(service, TournamentStore(client))
            except redis.RedisError as error:
                log.warning("open tournament sweep skipped: %s", error)
            try:
                expired = expire_waiting_games(client)
            except redis.RedisError as error:
                log.warning("expiry sweep skipped: %s", error)
                continue
            if expired:
                log.info("expired %d game(s) that waited too long for seats", len(expired))

    def stop(self) -> None:
        self.stopped.set()


class DeadlineThread(PeriodicThread):
    """Every `every_s` seconds, times out the games whose deadline passed (the `deadlines`
    index in Redis: a killed worker loses nothing, the entry stays until the game moves),
    then advances the open tournaments a game of which finished."""

    def __init__(self, redis_url: str, every_s: float):
        super().__init__("turn-deadlines", every_s)
        self.redis_url = redis_url

    def setup(self) -> None:
        client = store_client(self.redis_url)
        scheduler = BotTurnQueue(queue_client(self.redis_url))
        self.service = GameService(client, cache=RecordCache(1024), scheduler=scheduler)
        self.tournaments = TournamentStore(client)

    def tick(self) -> None:
        try:
            time_out_due(self.service)
        finally:  # a failed clock pass must not hold up the tournaments
            open_tournaments.advance_due(self.service, self.tournaments)
