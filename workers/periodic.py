"""The shape of the threads beside a worker: set up once, then one pass every few seconds
until stopped; a pass that fails is logged and the next one runs as usual (one broken game or
a moment without Redis must not stop the others)."""

from __future__ import annotations

import logging
import threading

log = logging.getLogger(__name__)


class PeriodicThread(threading.Thread):
    """Calls `setup()` once, then `tick()` every `every_s` seconds until `stop()`."""

    def __init__(self, name: str, every_s: float):
        super().__init__(name=name, daemon=True)
        self.every_s = every_s
        self.stopped = threading.Event()

    def setup(self) -> None:
        """Open what the passes use (connections, services)."""

    def tick(self) -> None:
        """One pass."""
        raise NotImplementedError

    def run(self) -> None:
        self.setup()
        while not self.stopped.wait(self.every_s):
            try:
                self.tick()
            except Exception:
                log.exception("%s: a pass failed", self.name)

    def stop(self) -> None:
        self.stopped.set()
