"""Answers derived from finished games' logs, kept in one Redis hash per game.

Each answer has a name (naming what it was built from, so a changed input is a new name)
and parts (bodies by content coding, an ETag...), stored as `<name>|<part>` fields. The
hash expires a while after its last write: anything in it can be built again from the log.
A lease (SET NX PX) names the one process building an answer.
"""

from __future__ import annotations

import redis

from store import keys
from store.core.scripts import load_script


class DerivedStore:
    """Reads and writes the derived answers of games."""

    def __init__(self, client: redis.Redis):
        self.client = client
        self._end_lease = client.register_script(load_script("lease_release.lua"))

    def read(self, game_id: str, name: str, parts: tuple[str, ...]) -> dict[str, bytes] | None:
        """The answer's `parts`, or None unless every one is stored."""
        values = self.client.hmget(keys.game_derived(game_id), [f"{name}|{p}" for p in parts])
        if any(value is None for value in values):
            return None
        return dict(zip(parts, values, strict=True))

    def write(self, game_id: str, name: str, parts: dict[str, bytes], ttl_s: int) -> None:
        """Store the answer's parts; the game's hash expires `ttl_s` after this write."""
        key = keys.game_derived(game_id)
        pipe = self.client.pipeline(transaction=True)
        pipe.hset(key, mapping={f"{name}|{part}": value for part, value in parts.items()})
        pipe.expire(key, ttl_s)
        pipe.execute()

    def begin(self, game_id: str, name: str, token: str, lease_ms: int) -> bool:
        """Take the lease of building `name` (False: another process holds it)."""
        lease = keys.game_derived_lease(game_id, name)
        return bool(self.client.set(lease, token, nx=True, px=lease_ms))

    def leased(self, game_id: str, name: str) -> bool:
        """Whether some process holds the lease of building `name`."""
        return bool(self.client.exists(keys.game_derived_lease(game_id, name)))

    def end(self, game_id: str, name: str, token: str) -> None:
        """Give the lease back (only if this token still holds it)."""
        self._end_lease(keys=[keys.game_derived_lease(game_id, name)], args=[token])
