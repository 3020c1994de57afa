"""A per-process LRU of folded games, so a command only reads the entries after its copy."""

from __future__ import annotations

import threading
from collections import OrderedDict

from store.record import GameRecord


class RecordCache:
    """Thread-safe LRU: game id -> the newest GameRecord this process has seen."""

    def __init__(self, capacity: int = 2048):
        self.capacity = capacity
        self._records: OrderedDict[str, GameRecord] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> GameRecord | None:
        with self._lock:
            record = self._records.get(game_id)
            if record is not None:
                self._records.move_to_end(game_id)
            return record

    def discard(self, game_id: str) -> None:
        """Forget a game (its stored log no longer extends the cached copy)."""
        with self._lock:
            self._records.pop(game_id, None)

    def put(self, record: GameRecord) -> None:
        """Keep `record` unless a newer version of the same game is already cached."""
        with self._lock:
            known = self._records.get(record.game_id)
            if known is not None and known.version >= record.version:
                return
            self._records[record.game_id] = record
            self._records.move_to_end(record.game_id)
            while len(self._records) > self.capacity:
                self._records.popitem(last=False)
