"""A per-process LRU of folded games, so a command only reads the entries after its copy."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from gamelog.record import GameRecord


@dataclass(frozen=True, slots=True)
class LoadedGame:
    """A game's record at one version and the token hashes of its seats at that version
    (a seat's hash is written once, with the batch that seats it, and never changes)."""

    record: GameRecord
    token_hashes: dict[int, str] = field(default_factory=dict)


class RecordCache:
    """Thread-safe LRU: game id -> the newest LoadedGame this process has seen."""

    def __init__(self, capacity: int = 2048):
        self.capacity = capacity
        self._games: OrderedDict[str, LoadedGame] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> LoadedGame | None:
        with self._lock:
            game = self._games.get(game_id)
            if game is not None:
                self._games.move_to_end(game_id)
            return game

    def discard(self, game_id: str) -> None:
        """Forget a game (its stored log no longer extends the cached copy)."""
        with self._lock:
            self._games.pop(game_id, None)

    def put(self, game: LoadedGame) -> None:
        """Keep `game` unless a newer version of the same game is already cached."""
        game_id = game.record.game_id
        with self._lock:
            known = self._games.get(game_id)
            if known is not None and known.record.version >= game.record.version:
                return
            self._games[game_id] = game
            self._games.move_to_end(game_id)
            while len(self._games) > self.capacity:
                self._games.popitem(last=False)
