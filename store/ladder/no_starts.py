"""No-starts in Redis: per account, the rated games aborted because its seat never moved
(game id -> ms the game ended), a sorted set with a TTL, and an index of accounts with
recent ones. Storage only: application/ladder/no_starts.py decides what counts."""

from __future__ import annotations

import redis

from store import keys
from store.core.codec import text

KEEP_MS = 7 * 24 * 3600 * 1000  # kept for the operator's look back (a week)


class NoStartStore:
    """Reads and writes the no-start keys."""

    def __init__(self, client: redis.Redis):
        self.client = client

    def record(self, account: str, game_id: str, at: int) -> bool:
        """Keep a no-start of `account` (folded) once however often called; whether this
        call added it."""
        key = keys.no_starts(account)
        pipe = self.client.pipeline(transaction=True)  # the account's key alone: one slot
        pipe.zadd(key, {game_id: at}, nx=True)
        pipe.zremrangebyscore(key, "-inf", f"({at - KEEP_MS}")
        pipe.pexpire(key, KEEP_MS)
        added, *_ = pipe.execute()
        # The index sits on another slot of a cluster: its own round trip.
        pipe = self.client.pipeline(transaction=True)
        pipe.zadd(keys.no_starts_recent(), {account: at}, gt=True)
        pipe.zremrangebyscore(keys.no_starts_recent(), "-inf", f"({at - KEEP_MS}")
        pipe.execute()
        return bool(added)

    def since(self, account: str, since: int) -> list[tuple[str, int]]:
        """The account's no-starts after `since` (ms): (game id, ms), oldest first."""
        found = self.client.zrangebyscore(
            keys.no_starts(account), f"({since}", "+inf", withscores=True
        )
        return [(text(game_id), int(at)) for game_id, at in found]

    def recent_accounts(self, since: int) -> list[str]:
        """The (folded) accounts with a no-start after `since` (ms)."""
        found = self.client.zrangebyscore(keys.no_starts_recent(), f"({since}", "+inf")
        return [text(account) for account in found]
