"""The Redis side of moving games to the archive tier: the set of compacted games waiting
for it (keys.games_to_archive), what a row is built from (the compacted blob and the index
summary), and the drop of the blob once the archive holds a verified copy."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import redis

from store import keys
from store.core.claim_set import ClaimSet
from store.core.codec import text
from store.core.scripts import load_script


class Drop(StrEnum):
    """What the drop of a game's blob did."""

    DROPPED = "dropped"
    GONE = "gone"  # no blob: dropped before
    CHANGED = "changed"  # another blob than the one archived: kept


@dataclass(frozen=True, slots=True)
class Held:
    """What Redis holds of a game: its compacted blob, whether a live log is left, its
    index summary, and whether it is listed (in the listing by creation: a game of a
    duplicate deal is not while its deal is sealed)."""

    blob: bytes | None
    live: bool
    summary: bytes | None
    listed: bool


class ArchiveQueue(ClaimSet):
    """Files, claims and drops the games moving to the archive tier."""

    def __init__(self, client: redis.Redis):
        super().__init__(client, keys.games_to_archive())
        self.drop_script = client.register_script(load_script("archive_drop.lua"))

    def file(self, game_id: str, at_ms: int) -> None:
        """File a compacted game, due `KELTIS_ARCHIVE_AFTER` after `at_ms`."""
        self.client.zadd(keys.games_to_archive(), {game_id: at_ms}, nx=True)

    def held(self, game_id: str) -> Held:
        """What Redis holds of a game (Held)."""
        pipe = self.client.pipeline(transaction=False)
        pipe.get(keys.packed(game_id))
        pipe.exists(keys.log(game_id))
        pipe.hget(keys.game_summaries(), game_id)
        pipe.zscore(keys.games_by_created(), game_id)
        blob, live, summary, listed = pipe.execute()
        return Held(blob, bool(live), summary, listed is not None)

    def unlist(self, game_id: str, game: str, status: str) -> None:
        """Take an archived game out of Redis's listings and summaries (the archive lists it
        from now on: store.archive.listing); its accounts' sets keep it. One key per
        command: the sets may sit on different nodes of a Redis Cluster."""
        pipe = self.client.pipeline(transaction=False)
        pipe.zrem(keys.games_by_created(), game_id)
        pipe.zrem(keys.games_by_game(game), game_id)
        pipe.zrem(keys.games_by_status(status), game_id)
        pipe.zrem(keys.games_by_game_and_status(game, status), game_id)
        pipe.hdel(keys.game_summaries(), game_id)
        pipe.execute()

    def drop(self, game_id: str, blob: bytes) -> Drop:
        """Delete the game's blob if it is still `blob` (the copy the archive verified)."""
        return Drop(text(self.drop_script(keys=[keys.packed(game_id)], args=[blob])))
