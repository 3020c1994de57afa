"""The export's walk over one arena's games (GET /v1/games/export?arena=<id>): pages of
(id, position), newest game first, the position being the game's number in its arena."""

from __future__ import annotations

from collections.abc import Iterator

from application.arenas.errors import ArenaNotFound
from store import keys
from store.arenas.records import ArenaStore
from store.core.codec import text
from store.core.cursor import Position

PAGE = 100


def arena_walk(client, aid: str, after: Position | None) -> Iterator[list]:
    """Pages of (game id, Position(number, id)) strictly below `after`; ArenaNotFound for an
    unknown arena."""
    if ArenaStore(client).spec(aid) is None:
        raise ArenaNotFound("no arena with this id")
    top = "+inf" if after is None else f"({int(after.score)}"
    while True:
        found = client.zrevrangebyscore(
            keys.arena_games(aid), top, "-inf", start=0, num=PAGE, withscores=True
        )
        if not found:
            return
        page = [(text(g), Position(int(s), text(g))) for g, s in found]
        yield page
        top = f"({int(found[-1][1])}"
