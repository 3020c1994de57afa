"""The one-shot move of the rated pool's keys from the single `{seeks}` slot to the keys of
store.keys.seeks (run by `keltis reindex`). Each open seek is copied to its new keys, listed
under its account, its address and its shard, then its old keys are deleted; recent
opponents are copied with what is left of their expiry. Running it again moves nothing
twice: a seek already moved has no old keys left."""

from __future__ import annotations

import orjson
import redis

from store import keys
from store.core.codec import text


def move_legacy_seeks(client: redis.Redis) -> int:
    """Move every open seek stored under the old keys; the number moved."""
    moved = 0
    for raw_id, created in client.zrange(keys.legacy_seeks_open(), 0, -1, withscores=True):
        seek_id = text(raw_id)
        if _move_seek(client, seek_id, int(created)):
            moved += 1
        client.zrem(keys.legacy_seeks_open(), seek_id)
    _move_recent(client)
    return moved


def _move_seek(client: redis.Redis, seek_id: str, created: int) -> bool:
    raw = client.hgetall(keys.legacy_seek(seek_id))
    playing = client.zrange(keys.legacy_seek_playing(seek_id), 0, -1, withscores=True)
    games = client.lrange(keys.legacy_seek_games(seek_id), 0, -1)
    if not raw or b"data" not in raw:
        return False
    data = orjson.loads(raw[b"data"])
    folded, address = data["account"].lower(), data["address"]
    pipe = client.pipeline(transaction=True)  # the seek's own keys: one slot
    pipe.hset(keys.seek(seek_id), mapping=raw)
    pipe.delete(keys.seek_playing(seek_id), keys.seek_games(seek_id))
    if playing:
        pipe.zadd(keys.seek_playing(seek_id), dict(playing))
    if games:
        pipe.rpush(keys.seek_games(seek_id), *games)
    pipe.execute()
    client.zadd(keys.seeks_of_account(folded), {seek_id: created})
    client.zadd(keys.seeks_of_address(address), {seek_id: created})
    client.zadd(keys.seeks_open_of(seek_id), {seek_id: created})
    pipe = client.pipeline(transaction=True)  # the old keys: the one `{seeks}` slot
    pipe.delete(
        keys.legacy_seek(seek_id),
        keys.legacy_seek_playing(seek_id),
        keys.legacy_seek_games(seek_id),
    )
    pipe.zrem(keys.legacy_seeks_of_account(folded), seek_id)
    pipe.zrem(keys.legacy_seeks_of_address(address), seek_id)
    pipe.execute()
    return True


def _move_recent(client: redis.Redis) -> None:
    prefix = keys.legacy_seek_recent_prefix()
    for raw_key in list(client.scan_iter(match=keys.legacy_seek_recent_pattern())):
        old = text(raw_key)
        found = client.zrange(old, 0, -1, withscores=True)
        left_ms = client.pttl(old)
        if found and left_ms > 0:
            new = keys.seek_recent(old[len(prefix) :])
            client.zadd(new, dict(found))
            client.pexpire(new, left_ms)
        client.delete(old)
