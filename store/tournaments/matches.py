"""Two-board matches in Redis: one hash per match (its spec, games, status, secret, result)
and the sorted set of running matches by their start."""

from __future__ import annotations

import orjson

from store import keys
from store.core.codec import text, text_fields


def create(client, match_id: str, record: dict, first_game: str, created_at: int) -> None:
    """Write a new running match (nothing when it was written already)."""
    pipe = client.pipeline(transaction=True)  # the match's own slot
    pipe.hsetnx(keys.match(match_id), "spec", orjson.dumps(record))
    pipe.hsetnx(keys.match(match_id), "games", orjson.dumps([first_game]))
    pipe.hsetnx(keys.match(match_id), "status", "running")
    pipe.execute()
    client.zadd(keys.matches_running(), {match_id: created_at}, nx=True)


def secret(client, match_id: str, drawn: str) -> str:
    """The match's secret: `drawn` unless one was kept already."""
    client.hsetnx(keys.match(match_id), "secret", drawn)
    return text(client.hget(keys.match(match_id), "secret"))


def read(client, match_id: str) -> dict[str, str]:
    """The match's fields as text ({}: no such match)."""
    return text_fields(client.hgetall(keys.match(match_id)))


def running(client, limit: int) -> list[str]:
    """The ids of up to `limit` running matches, oldest first."""
    return [text(i) for i in client.zrange(keys.matches_running(), 0, limit - 1)]


def last_games(client, ids: list[str]) -> list[str | None]:
    """Each match's newest game id (None: no record), in one round trip."""
    pipe = client.pipeline(transaction=False)
    for match_id in ids:
        pipe.hget(keys.match(match_id), "games")
    return [orjson.loads(raw)[-1] if raw else None for raw in pipe.execute()]


def set_games(client, match_id: str, games: list[str]) -> None:
    client.hset(keys.match(match_id), "games", orjson.dumps(games))


def finish(client, match_id: str, status: str, result: dict | None, keep_ms: int) -> None:
    """End the match: its status (and result), kept `keep_ms` more, no longer running."""
    pipe = client.pipeline(transaction=True)
    mapping = {"status": status}
    if result is not None:
        mapping["result"] = orjson.dumps(result)
    pipe.hset(keys.match(match_id), mapping=mapping)
    pipe.pexpire(keys.match(match_id), keep_ms)
    pipe.execute()
    client.zrem(keys.matches_running(), match_id)


def forget_running(client, match_id: str) -> None:
    """No longer list the match as running (it is gone or over)."""
    client.zrem(keys.matches_running(), match_id)
