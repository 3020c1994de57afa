"""Indexes over all games (listing, bot turns due); rebuildable from the logs at any time."""

from __future__ import annotations

import json

import orjson
import redis

from gamelog.record import GameRecord
from store import keys


def summary(record: GameRecord) -> dict:
    """The public summary of a game kept in the index (no hidden information)."""
    return {
        "id": record.game_id,
        "game": record.game,
        "status": record.status,
        "version": record.version,
        "to_move": record.to_move,
        "players": [public_player(seat, p) for seat, p in enumerate(record.players)],
        "created_at": record.created_at,
        "updated_at": record.updated_at,
    }


def public_player(seat: int, player: dict) -> dict:
    """A seat as anyone may see it."""
    return {
        "seat": seat,
        "name": player.get("name"),
        "bot": player.get("bot"),
        "open": bool(player.get("open")),
    }


def update(
    pipe: redis.client.Pipeline, record: GameRecord, before: GameRecord | None = None
) -> None:
    """Queue the index writes for a game's new version on `pipe`.

    `before` is the version `record` directly follows, whose own index writes were made with
    its append; writes that cannot change anything after it are left out (a game is listed
    once; a game whose bot was not due has no bot-turn entry to remove).
    """
    if before is None:
        pipe.zadd(keys.games_by_created(), {record.game_id: record.created_at}, nx=True)
    pipe.hset(
        keys.game_summaries(),
        record.game_id,
        orjson.dumps(summary(record)),
    )
    was_waiting = before is not None and before.status == "waiting"
    if record.status == "waiting" and not was_waiting:  # what the expiry sweep looks at
        pipe.zadd(keys.games_waiting(), {record.game_id: record.created_at}, nx=True)
    elif record.status != "waiting" and (before is None or was_waiting):
        pipe.zrem(keys.games_waiting(), record.game_id)
    if _bot_due(record):
        pipe.zadd(keys.bot_turns(), {record.game_id: record.updated_at})
    elif before is None or _bot_due(before):
        pipe.zrem(keys.bot_turns(), record.game_id)


def _bot_due(record: GameRecord) -> bool:
    return bool(record.bot_to_move()) and not record.finished


def list_games(
    client: redis.Redis, status: str | None, game: str | None, offset: int, limit: int
) -> tuple[list[dict], int | None]:
    """Summaries, newest first, filtered; returns them and the next offset (None at the end)."""
    found: list[dict] = []
    position = offset
    chunk = max(limit * 4, 100)
    while len(found) < limit:
        ids = client.zrevrange(keys.games_by_created(), position, position + chunk - 1)
        if not ids:
            return found, None
        raw = client.hmget(keys.game_summaries(), ids)
        for item in raw:
            position += 1
            if item is None:
                continue
            data = json.loads(item)
            if (status is None or data["status"] == status) and (
                game is None or data["game"] == game
            ):
                found.append(data)
                if len(found) == limit:
                    break
    more = client.zcard(keys.games_by_created()) > position
    return found, position if more else None


def bot_turns_due(client: redis.Redis, older_than_ms: int) -> list[str]:
    """Ids of games whose bot has been due since before `older_than_ms`."""
    return [
        gid.decode() if isinstance(gid, bytes) else gid
        for gid in client.zrangebyscore(keys.bot_turns(), "-inf", older_than_ms)
    ]
