"""Leased slots of held requests (streams and long polls), counted in Redis so that every
process sees one count per client address and per account.

A slot is a member of a sorted set scored by the time its lease ends (the server's clock,
store/lua/slot_claim.lua). The holder renews its lease while it lives and removes it when it
ends; a slot whose process died stops counting when its lease runs out, so a crash frees its
slots within one lease instead of holding them for a stream's whole lifetime.
"""

from __future__ import annotations

import redis
from redis.cluster import RedisCluster

from store import keys
from store.core.scripts import load_script


class SlotStore:
    """Claims, renews and frees leased slots."""

    def __init__(self, client: redis.Redis):
        self.client = client
        self.claim_script = client.register_script(load_script("slot_claim.lua"))
        self.renew_script = client.register_script(load_script("slot_renew.lua"))

    def claim(self, key: str, slot_id: str, lease_ms: int, bound: int) -> bool:
        """Hold a slot under `key` for `lease_ms`; False (nothing held) when `bound` slots
        are held already."""
        return bool(self.claim_script(keys=[key], args=[slot_id, lease_ms, max(1, bound)]))

    def renew(self, key: str, slot_id: str, lease_ms: int) -> None:
        """Extend the slot's lease (held again if it had lapsed, never refused)."""
        self.claim_script(keys=[key], args=[slot_id, lease_ms, 0])

    def renew_many(self, slots: dict[tuple[str, int], list[str]]) -> None:
        """Extend many leases in one pipelined round trip: the slot ids under each (key,
        lease in ms); one script call per key, whatever the number of slots."""
        if not slots:
            return
        if isinstance(self.client, RedisCluster):  # keys on many nodes: a call per key
            for (key, lease_ms), slot_ids in slots.items():
                self.renew_script(keys=[key], args=[lease_ms, *slot_ids])
            return
        pipe = self.client.pipeline(transaction=False)
        for (key, lease_ms), slot_ids in slots.items():
            self.renew_script(keys=[key], args=[lease_ms, *slot_ids], client=pipe)
        pipe.execute()

    def free(self, key: str, slot_id: str) -> None:
        """The held request ended: its slot no longer counts."""
        self.client.zrem(key, slot_id)

    def held(self, key: str) -> int:
        """How many slots are held under `key` now, leases not yet expired included (for
        tests and stats)."""
        return int(self.client.zcard(key))


def address_key(address: str) -> str:
    """The slots of one client address."""
    return keys.client_held(address)


def account_key(name: str) -> str:
    """The slots of one account."""
    return keys.account_streams(name.lower())
