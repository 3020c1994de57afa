"""Compacting a finished game's log in place, in two steps each made by one script: write
the compressed blob beside the live list (only while the list is the one it was built
from), then drop the list and the keys the blob replaces (only once the blob exists). A
crash between them leaves both, which read the same; running either step again is
harmless."""

from __future__ import annotations

from enum import StrEnum

import redis

from store import keys
from store.core.claim_set import ClaimSet
from store.core.codec import text
from store.core.scripts import load_script
from store.games import packing


class Step(StrEnum):
    """What a compaction step did."""

    WRITTEN = "written"  # step 1: the blob was written
    EXISTS = "exists"  # step 1: a blob was there already
    MOVED = "moved"  # the list is not the one the blob holds: nothing done
    DROPPED = "dropped"  # step 2: the live list and the replaced keys are gone
    MISSING = "missing"  # step 2: no blob, nothing dropped


class CompactionStore(ClaimSet):
    """The two steps of a compaction and the set of games waiting for one."""

    def __init__(self, client: redis.Redis):
        super().__init__(client, keys.games_to_compact())
        self.write_script = client.register_script(load_script("pack_write.lua"))
        self.drop_script = client.register_script(load_script("pack_drop.lua"))

    def live_log(self, game_id: str) -> tuple[list[bytes], dict[int, str]]:
        """The live list of a game as stored and its seats' token hashes."""
        pipe = self.client.pipeline(transaction=False)
        pipe.lrange(keys.log(game_id), 0, -1)
        pipe.hgetall(keys.tokens(game_id))
        raws, hashes = pipe.execute()
        return list(raws), {int(seat): text(h) for seat, h in hashes.items()}

    def write(self, game_id: str, entries: list[bytes], blob: bytes) -> Step:
        """Step 1: write `blob` (built from `entries`) unless the list moved on or a blob
        exists."""
        found = self.write_script(
            keys=[keys.log(game_id), keys.packed(game_id)],
            args=[len(entries), entries[-1], blob],
        )
        return Step(text(found))

    def drop(self, game_id: str, version: int) -> Step:
        """Step 2: drop the live list, token hashes, recorded answers, snapshot and derived
        answers once the blob of `version` is written."""
        found = self.drop_script(
            keys=[
                keys.log(game_id),
                keys.packed(game_id),
                keys.tokens(game_id),
                keys.idempotency(game_id),
                keys.snapshot(game_id),
                keys.game_derived(game_id),
            ],
            args=[version],
        )
        return Step(text(found))

    def packed_version(self, game_id: str) -> int | None:
        head = self.client.getrange(keys.packed(game_id), 0, packing.HEAD_BYTES - 1)
        return packing.version_of(head)
