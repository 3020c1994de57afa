"""Bot turns that keep failing: per game, the version whose bot turn failed, how often, since
when and why (a reason that names no hidden information). A game whose bot failed
`STALL_AFTER` times at one version is stalled: filed in `stalled_games` for an operator, and
no worker retries it at that version. A stall of an older version means nothing (the game
moved on)."""

from __future__ import annotations

from dataclasses import asdict, dataclass

import orjson
import redis

from store import keys
from store.core.codec import text

STALL_AFTER = 3


@dataclass(frozen=True, slots=True)
class Stall:
    """The failures of a game's bot turn at one version."""

    version: int
    failures: int
    since: int  # ms of the first failure at this version
    reason: str

    @property
    def stalled(self) -> bool:
        return self.failures >= STALL_AFTER


class StallStore:
    """Failures of bot turns, and the set of stalled games."""

    def __init__(self, client: redis.Redis):
        self.client = client

    def get(self, game_id: str) -> Stall | None:
        raw = self.client.hget(keys.stalls(), game_id)
        return Stall(**orjson.loads(raw)) if raw is not None else None

    def failed(self, game_id: str, version: int, reason: str, now_ms: int) -> Stall:
        """Count one failure of the bot turn at `version`; the stall after it."""
        known = self.get(game_id)
        if known is None or known.version != version:
            stall = Stall(version, 1, now_ms, reason)
        else:
            stall = Stall(version, known.failures + 1, known.since, reason)
        pipe = self.client.pipeline(transaction=False)
        pipe.hset(keys.stalls(), game_id, orjson.dumps(asdict(stall)))
        if stall.stalled:
            pipe.zadd(keys.stalled_games(), {game_id: stall.since})
        pipe.execute()
        return stall

    def stalled_at(self, game_ids: list[str]) -> dict[str, int]:
        """Of `game_ids`, those stalled: id -> the version they stalled at."""
        if not game_ids:
            return {}
        found = {}
        for game_id, raw in zip(game_ids, self.client.hmget(keys.stalls(), game_ids), strict=True):
            if raw is not None:
                stall = Stall(**orjson.loads(raw))
                if stall.stalled:
                    found[game_id] = stall.version
        return found

    def stalled_games(self) -> list[str]:
        """Every game filed as stalled, longest stalled first."""
        return [text(game_id) for game_id in self.client.zrange(keys.stalled_games(), 0, -1)]

    def clear(self, game_id: str) -> None:
        """Forget a game's failures (it moved on)."""
        pipe = self.client.pipeline(transaction=False)
        pipe.hdel(keys.stalls(), game_id)
        pipe.zrem(keys.stalled_games(), game_id)
        pipe.execute()
