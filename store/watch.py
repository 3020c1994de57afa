"""Long-poll waits of one process, served by one poller: however many requests wait on
games, the process asks Redis for their versions in one pipelined round trip per tick."""

from __future__ import annotations

import logging
import threading
import time

import redis

from store import keys

log = logging.getLogger(__name__)

POLL_S = 0.05


class _Waiter:
    __slots__ = ("after", "woken")

    def __init__(self, after: int):
        self.after = after
        self.woken = threading.Event()


class VersionWatcher:
    """Wakes waiters once their game's log is longer than the version they know."""

    def __init__(self, client: redis.Redis, poll_s: float = POLL_S):
        self.client = client
        self.poll_s = poll_s
        self._waiters: dict[str, list[_Waiter]] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def wait(self, game_id: str, after: int, timeout_s: float) -> bool:
        """Block up to `timeout_s` until the game's version exceeds `after`; True if it did."""
        waiter = _Waiter(after)
        with self._lock:
            self._waiters.setdefault(game_id, []).append(waiter)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._poll, name="version-watch", daemon=True
                )
                self._thread.start()
        try:
            return waiter.woken.wait(timeout_s)
        finally:
            with self._lock:
                waiting = self._waiters.get(game_id, [])
                if waiter in waiting:
                    waiting.remove(waiter)
                if not waiting:
                    self._waiters.pop(game_id, None)

    def _poll(self) -> None:
        while True:
            with self._lock:
                games = list(self._waiters)
            if not games:
                with self._lock:
                    if not self._waiters:
                        self._thread = None
                        return
                continue
            try:
                pipe = self.client.pipeline(transaction=False)
                for game_id in games:
                    pipe.llen(keys.log(game_id))
                lengths = pipe.execute()
            except redis.RedisError as error:
                log.warning("version watch skipped a tick: %s", error)
                lengths = []
            with self._lock:
                for game_id, length in zip(games, lengths, strict=False):
                    for waiter in self._waiters.get(game_id, []):
                        if length > waiter.after:
                            waiter.woken.set()
            time.sleep(self.poll_s)
