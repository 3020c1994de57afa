"""Seeks in Redis: small records of the rated pool (not game logs), opened within bounds per
account and per address, and claimed for a game seek by seek, each claim one script
(store/lua/seek_claim.lua), so two pairing passes can never seat one seek beyond its
`max_games`. Storage only: application.seeks.service and application.seeks.pairing decide.

The pool is spread over a Redis Cluster's slots (store.keys.seeks): a seek's keys share its
own hash tag, the open seeks are listed in shards, an account's and an address's open
seeks sit in their account's and address's slots. So no step names two seeks at once:
- opening reserves a place in the account's set, then in the address's (each under its
  bound; a refusal by the second gives back the first), then writes the seek, then lists it;
- a table's claim claims its seeks one by one; one refused, the ones claimed are given back
  as they were (store/lua/seek_unclaim.lua). A process dying midway leaves a claim of a game
  that never comes, which the pass releases after its grace (application.seeks.worker_pass);
- closing deletes the seek, then takes it out of the lists.
A list entry whose seek is gone (a process died between the steps) is dropped by the next
read that meets it (`load`, and `open` for an account's or address's set).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import orjson
import redis

from store import keys
from store.core import notify
from store.core.codec import text
from store.core.scripts import load_script

GAMES_KEPT = 50  # game ids a seek remembers (the newest)
OPENED = 1
ACCOUNT_FULL = -1
ADDRESS_FULL = -2
OPENING_MS = 30_000  # an account's or address's entry without its seek is gone after this


@dataclass(frozen=True, slots=True)
class StoredSeek:
    """One open seek as stored: its data, when it last became free to pair (`since`), when
    its account was last seen listening (`seen`), its games in play (id -> ms claimed)."""

    id: str
    data: dict
    since: int
    seen: int
    playing: dict[str, int]

    @property
    def account(self) -> str:
        return self.data["account"]

    @property
    def folded(self) -> str:
        return self.data["account"].lower()


class SeekStore:
    """Opens, reads, claims, releases and closes seeks."""

    def __init__(self, client: redis.Redis):
        self.client = client
        self.reserve_script = client.register_script(load_script("seek_reserve.lua"))
        self.claim_script = client.register_script(load_script("seek_claim.lua"))
        self.unclaim_script = client.register_script(load_script("seek_unclaim.lua"))

    def open(
        self, seek_id: str, data: dict, now_ms: int, per_account: int, per_address: int
    ) -> int:
        """Store a new seek unless its account or address holds its bound: OPENED,
        ACCOUNT_FULL or ADDRESS_FULL."""
        by_account = keys.seeks_of_account(data["account"].lower())
        by_address = keys.seeks_of_address(data["address"])
        self._drop_gone(by_account, now_ms)
        if not self.reserve_script(keys=[by_account], args=[seek_id, now_ms, per_account]):
            return ACCOUNT_FULL
        self._drop_gone(by_address, now_ms)
        if not self.reserve_script(keys=[by_address], args=[seek_id, now_ms, per_address]):
            self.client.zrem(by_account, seek_id)
            return ADDRESS_FULL
        fields = {"data": orjson.dumps(data), "since": now_ms, "seen": now_ms}
        # Two round trips, not one pipeline: on a cluster a pipeline's nodes answer in no
        # set order, and a listed seek must exist (`load` drops a listed id that does not).
        self.client.hset(keys.seek(seek_id), mapping=fields)
        self.client.zadd(keys.seeks_open_of(seek_id), {seek_id: now_ms})
        return OPENED

    def _drop_gone(self, key: str, now_ms: int) -> None:
        """Take out of an account's or address's open seeks the ids whose seek is gone (a
        process died between a close's steps, or between an open's), once older than
        OPENING_MS (an open still under way has not written its seek yet)."""
        old = [text(i) for i in self.client.zrangebyscore(key, "-inf", now_ms - OPENING_MS)]
        if not old:
            return
        pipe = self.client.pipeline(transaction=False)
        for seek_id in old:
            pipe.exists(keys.seek(seek_id))
        gone = [i for i, found in zip(old, pipe.execute(), strict=True) if not found]
        if gone:
            self.client.zrem(key, *gone)

    def open_ids(self, limit: int) -> list[str]:
        """The oldest `limit` open seek ids (of every shard)."""
        pipe = self.client.pipeline(transaction=False)
        for shard in range(keys.OPEN_SHARDS):
            pipe.zrange(keys.seeks_open(shard), 0, limit - 1, withscores=True)
        found = [(score, text(i)) for listed in pipe.execute() for i, score in listed]
        return [seek_id for _, seek_id in sorted(found)[:limit]]

    def account_ids(self, folded_name: str) -> list[str]:
        return [text(i) for i in self.client.zrange(keys.seeks_of_account(folded_name), 0, -1)]

    def load(self, seek_ids: Iterable[str]) -> list[StoredSeek]:
        """The stored seeks of these ids (gone ones left out, and taken off the open
        seeks' list: a seek is written before it is listed), in the order given."""
        seek_ids = list(seek_ids)
        if not seek_ids:
            return []
        pipe = self.client.pipeline(transaction=False)
        for seek_id in seek_ids:
            pipe.hgetall(keys.seek(seek_id))
            pipe.zrange(keys.seek_playing(seek_id), 0, -1, withscores=True)
        found, gone = [], []
        answers = pipe.execute()
        for at, seek_id in enumerate(seek_ids):
            raw, playing = answers[2 * at], answers[2 * at + 1]
            if not raw or b"data" not in raw:
                gone.append(seek_id)
                continue
            found.append(
                StoredSeek(
                    seek_id,
                    orjson.loads(raw[b"data"]),
                    int(raw.get(b"since", 0)),
                    int(raw.get(b"seen", 0)),
                    {text(game): int(ms) for game, ms in playing},
                )
            )
        if gone:
            pipe = self.client.pipeline(transaction=False)
            for seek_id in gone:
                pipe.zrem(keys.seeks_open_of(seek_id), seek_id)
            pipe.execute()
        return found

    def games(self, seek_ids: list[str]) -> dict[str, list[str]]:
        """The newest game ids started from each seek."""
        pipe = self.client.pipeline(transaction=False)
        for seek_id in seek_ids:
            pipe.lrange(keys.seek_games(seek_id), 0, -1)
        return {
            seek_id: [text(g) for g in found]
            for seek_id, found in zip(seek_ids, pipe.execute(), strict=True)
        }

    def claim(self, seeks: list[StoredSeek], game_id: str, now_ms: int) -> int:
        """Claim every seek for the game `game_id` (all or none): 0, or the 1-based position
        of the first seek that was not claimable (closed, or at its max_games). The seeks
        are claimed one at a time (each in its own slot); when one is refused, those claimed
        before it are given back with the `since` they had."""
        claimed: list[tuple[StoredSeek, int]] = []
        for position, found in enumerate(seeks, start=1):
            since = int(
                self.claim_script(
                    keys=self._own_keys(found.id),
                    args=[game_id, now_ms, GAMES_KEPT, int(found.data["max_games"])],
                )
            )
            if since < 0:
                for taken, before in claimed:
                    self.unclaim_script(keys=self._own_keys(taken.id), args=[game_id, before])
                return position
            claimed.append((found, since))
        return 0

    @staticmethod
    def _own_keys(seek_id: str) -> list[str]:
        return [keys.seek(seek_id), keys.seek_playing(seek_id), keys.seek_games(seek_id)]

    def release(self, seek_id: str, game_id: str, now_ms: int, forget: bool = False) -> None:
        """The game no longer holds the seek (over, or never created): the seek is free
        again from `now_ms`; `forget` also drops it from the seek's games."""
        pipe = self.client.pipeline(transaction=True)
        pipe.zrem(keys.seek_playing(seek_id), game_id)
        if forget:
            pipe.lrem(keys.seek_games(seek_id), 0, game_id)
        removed = pipe.execute()[0]
        if removed and self.client.exists(keys.seek(seek_id)):
            self.client.hset(keys.seek(seek_id), "since", now_ms)

    def seen(self, seen: dict[str, int]) -> None:
        """Note when each seek's account was seen listening (seek id -> ms)."""
        if not seen:
            return
        pipe = self.client.pipeline(transaction=False)
        for seek_id, ms in seen.items():
            pipe.hset(keys.seek(seek_id), "seen", ms)
        pipe.execute()

    def close(self, found: StoredSeek) -> bool:
        """Remove an open seek (its games go on); False when it was gone already. Its own
        keys go first (one slot, one transaction), then its entries in the lists."""
        pipe = self.client.pipeline(transaction=True)
        pipe.delete(keys.seek(found.id))
        pipe.delete(keys.seek_playing(found.id), keys.seek_games(found.id))
        existed = bool(pipe.execute()[0])
        pipe = self.client.pipeline(transaction=False)
        pipe.zrem(keys.seeks_open_of(found.id), found.id)
        pipe.zrem(keys.seeks_of_account(found.folded), found.id)
        pipe.zrem(keys.seeks_of_address(found.data["address"]), found.id)
        pipe.execute()
        return existed

    def recent(self, folded_names: Iterable[str], since_ms: int) -> dict[str, set[str]]:
        """Each account's pool opponents (participant ids) paired after `since_ms`."""
        folded_names = sorted(set(folded_names))
        pipe = self.client.pipeline(transaction=False)
        for name in folded_names:
            pipe.zrangebyscore(keys.seek_recent(name), f"({since_ms}", "+inf")
        return {
            name: {text(p) for p in found}
            for name, found in zip(folded_names, pipe.execute(), strict=True)
        }

    def note_opponents(self, pairs: dict[str, list[str]], now_ms: int, keep_ms: int) -> None:
        """Remember each account's new opponents (folded name -> participant ids) for
        `keep_ms`."""
        pipe = self.client.pipeline(transaction=False)
        for name, opponents in pairs.items():
            key = keys.seek_recent(name)
            if opponents:
                pipe.zadd(key, dict.fromkeys(opponents, now_ms))
            pipe.zremrangebyscore(key, "-inf", now_ms - keep_ms)
            pipe.pexpire(key, keep_ms)
        pipe.execute()

    def take_pass(self, owner: str, lease_ms: int) -> bool:
        """The lease of one pairing pass (True: this caller runs it)."""
        return bool(self.client.set(keys.seeks_pass_lease(), owner, nx=True, px=lease_ms))

    def end_pass(self, owner: str) -> None:
        """Give the lease back (only the owner's: a lapsed lease may be another's now)."""
        if text(self.client.get(keys.seeks_pass_lease()) or b"") == owner:
            self.client.delete(keys.seeks_pass_lease())

    def ring(self) -> None:
        """Wake the pairing threads (a hint; SPUBLISH on a cluster with sharded pub/sub,
        which is what their listeners subscribe with)."""
        notify.tell(self.client, [keys.seeks_channel()], b"1")


def listening(client: redis.Redis, folded_names: Iterable[str], now_ms: int) -> set[str]:
    """The accounts with an event stream open now (its slot's lease not run out)."""
    folded_names = sorted(set(folded_names))
    pipe = client.pipeline(transaction=False)
    for name in folded_names:
        pipe.zcount(keys.account_streams(name), f"({now_ms}", "+inf")
    return {name for name, n in zip(folded_names, pipe.execute(), strict=True) if n}


def in_play(client: redis.Redis, claims: list[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """For (folded account, game id) pairs: `playing` (the game is in play for the
    account), `over` (it exists and is not), or `missing` (no such game, yet)."""
    pipe = client.pipeline(transaction=False)
    for name, game_id in claims:
        pipe.zscore(keys.account_playing(name), game_id)
        pipe.exists(keys.log(game_id), keys.packed(game_id))
    answers = pipe.execute()
    found = {}
    for at, claim in enumerate(claims):
        playing, exists = answers[2 * at], answers[2 * at + 1]
        found[claim] = "playing" if playing is not None else "over" if exists else "missing"
    return found
