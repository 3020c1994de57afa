"""The open event streams of each account (a bound per account), in Redis so every process
counts them: a sorted set of stream ids scored by the time each expires (a stream whose
process died stops counting when its lifetime is over)."""

from __future__ import annotations

import redis

from store import keys


def open_slot(
    client: redis.Redis, name: str, stream_id: str, now_ms: int, expires_ms: int, limit: int
) -> bool:
    """Count a new stream of the account; False (nothing counted) when `limit` are open."""
    key = keys.account_streams(name.lower())
    pipe = client.pipeline(transaction=False)
    pipe.zremrangebyscore(key, "-inf", now_ms)
    pipe.zadd(key, {stream_id: expires_ms})
    pipe.zcard(key)
    pipe.pexpireat(key, expires_ms)
    _, _, count, _ = pipe.execute()
    if count > limit:
        client.zrem(key, stream_id)
        return False
    return True


def close_slot(client: redis.Redis, name: str, stream_id: str) -> None:
    """The stream ended: it no longer counts."""
    client.zrem(keys.account_streams(name.lower()), stream_id)
