"""Games running far beyond a normal length, for an operator (`keltis games --long`).

A normal game's log holds 150-350 versions (2-4 seats, both games; the service rules end
every game at its 400th turn, E5/F5). A game in play past LONG_VERSIONS versions is playing
in circles or was started before those rules: worth a look. Read from the index (the
status sets of games in play and their summaries), a page at a time, so the cost is the
number of games in play, never their logs.
"""

from __future__ import annotations

import json

import redis

from gamelog.record import Status
from store import keys

LONG_VERSIONS = 600
PAGE = 500
IN_PLAY = (Status.ACTIVE, Status.FINAL_ROUND)


def long_games(client: redis.Redis, min_version: int = LONG_VERSIONS) -> list[dict]:
    """Every game in play at `min_version` or beyond, longest first (then oldest): its index
    summary (id, game, status, version, players, created_at, updated_at...)."""
    found = []
    for status in IN_PLAY:
        key = keys.games_by_status(str(status))
        start = 0
        while True:
            ids = client.zrange(key, start, start + PAGE - 1)
            if not ids:
                break
            start += len(ids)
            for raw in client.hmget(keys.game_summaries(), ids):
                summary = json.loads(raw) if raw is not None else None
                if summary is not None and summary["version"] >= min_version:
                    found.append(summary)
    return sorted(found, key=lambda s: (-s["version"], s["created_at"]))
