"""Counters of sign-in attempts in Redis: one per limit, client and fixed window, each
counted and read in one pipelined round trip. Storage only: the limits are decided in
application.accounts.sign_in."""

from __future__ import annotations

import redis

from store import keys


def count(client: redis.Redis, windows: list[tuple[str, str, int, int]]) -> list[int]:
    """Add one attempt to each window (limit id, who, window number, seconds it lasts);
    each window's count with it."""
    pipe = client.pipeline(transaction=False)
    for limit, who, number, expiry_s in windows:
        key = keys.sign_in_attempts(limit, who, number)
        pipe.incr(key)
        pipe.expire(key, expiry_s + 1)
    replies = pipe.execute()
    return [int(total) for total in replies[::2]]
