"""The shape of the threads beside a worker: set up once, then one pass every few seconds
(sooner when woken) until stopped, then tear down; a pass that fails is logged and the next
one runs as usual (one broken game or a moment without Redis must not stop the others)."""

from __future__ import annotations

import logging
import threading

from application.games.service import GameService
from application.operations.jobs import BotTurnQueue
from store.core.cache import RecordCache
from store.core.connection import queue_client, store_client
from store.core.notify import Listener

log = logging.getLogger(__name__)


def game_service(redis_url: str, cached: int) -> GameService:
    """A thread's GameService on the store of `redis_url`, keeping `cached` games, its due
    bot turns queued as RQ jobs (application.operations.jobs.BotTurnQueue)."""
    scheduler = BotTurnQueue(queue_client(redis_url))
    return GameService(store_client(redis_url), cache=RecordCache(cached), scheduler=scheduler)


class PeriodicThread(threading.Thread):
    """Calls `setup()` once, then `tick()` every `every_s` seconds, or as soon as `wake()` is
    called, until `stop()`; then `teardown()`."""

    def __init__(self, name: str, every_s: float):
        super().__init__(name=name, daemon=True)
        self.every_s = every_s
        self.stopped = threading.Event()
        self._woken = threading.Event()

    def setup(self) -> None:
        """Open what the passes use (connections, services)."""

    def tick(self) -> None:
        """One pass."""
        raise NotImplementedError

    def teardown(self) -> None:
        """Close what `setup()` opened (runs once the passes are over, even after an error)."""

    def pause(self) -> None:
        """Wait for the next pass: `every_s` seconds, or less once woken (or stopped)."""
        self._woken.wait(self.every_s)
        self._woken.clear()  # a wake-up from now on is served by a later pass

    def wake(self) -> None:
        """Run the next pass now instead of at the end of the wait."""
        self._woken.set()

    def run(self) -> None:
        self.setup()
        try:
            while not self.stopped.is_set():
                self.pause()
                if self.stopped.is_set():
                    break
                try:
                    self.tick()
                except Exception:
                    log.exception("%s: a pass failed", self.name)
        finally:
            self.teardown()

    def stop(self) -> None:
        self.stopped.set()
        self.wake()


class DrainThread(PeriodicThread):
    """A PeriodicThread whose pass calls `drain()` (one batch, over a store client of
    `redis_url`) until a batch does nothing or the thread is stopped."""

    def __init__(self, name: str, redis_url: str, every_s: float):
        super().__init__(name, every_s)
        self.redis_url = redis_url

    def setup(self) -> None:
        self.client = store_client(self.redis_url)

    def drain(self) -> int:
        """One batch; how many items it did."""
        raise NotImplementedError

    def tick(self) -> None:
        while self.drain() and not self.stopped.is_set():
            pass


class DoorbellThread(PeriodicThread):
    """A PeriodicThread whose wait also ends when its doorbell rings: `setup()` sets
    `doorbell` (a store.core.notify Listener of a channel), and `wake()` rings it too."""

    def __init__(self, name: str, every_s: float):
        super().__init__(name, every_s)
        self.doorbell: Listener | None = None

    def pause(self) -> None:
        """Wait on the doorbell (rung by Redis pub/sub and by `wake()`) or the period."""
        self.doorbell.wait(self.every_s)

    def wake(self) -> None:
        if self.doorbell is not None:
            self.doorbell.deliver(None)
