"""A sorted set of ids waiting for a background pass, each due at its score: a pass claims
the due ones with a lease (claim_turns.lua: the score becomes the lease's end, so a claim
whose worker died lapses and the id is due again) and takes each out once done."""

from __future__ import annotations

import redis

from store.core.codec import text
from store.core.scripts import load_script


class ClaimSet:
    """Claims, completes and lists the ids of one sorted set."""

    def __init__(self, client: redis.Redis, key: str):
        self.client = client
        self.key = key
        self.claim_script = client.register_script(load_script("claim_turns.lua"))

    def claim_due(self, until_ms: int, lease_ms: int, now_ms: int, limit: int) -> list[str]:
        """Up to `limit` ids filed at or before `until_ms`, each claimed until
        `now_ms + lease_ms` (a claim that lapses, its worker dead, makes it due again)."""
        found = self.claim_script(keys=[self.key], args=[until_ms, now_ms + lease_ms, limit])
        return [text(member) for member in found]

    def done(self, member: str) -> None:
        """Take an id out of the set."""
        self.client.zrem(self.key, member)

    def pending(self) -> list[str]:
        return [text(member) for member in self.client.zrange(self.key, 0, -1)]
