"""An arena's live stream (GET /v1/arenas/{id}/stream): first its leaderboard, then one line
per arena game as it is recorded, each followed by the leaderboard it changed, keep-alives
(None) between, and a last line when the arena is over."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from application.arenas import service as arenas
from application.games.service import GameService
from store import keys
from store.arenas.records import ArenaStore


def arena_events(
    service: GameService,
    aid: str,
    after: int,
    keepalive_s: float,
    max_s: float,
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[dict | None]:
    """`{"type": "leaderboard", "leaderboard": [...], "status"}` at once; then per recorded
    game `{"type": "game_finished", "position", "game", "players", "scores", "winners",
    "forfeited", "ended", "void"}` (from position `after` on: a reconnecting client passes
    the number of game lines it has), then a `leaderboard` line; `{"type":
    "arena_finished"}` ends the stream; the stream also ends after `max_s` seconds."""
    store = ArenaStore(service.client)
    arenas.load(store, aid)
    ends = clock() + max_s
    with service.notices.listen(keys.arena_channel(aid)) as listener:
        yield _board(store, aid)
        while True:
            lines = store.feed(aid, after)
            for line in lines:
                after += 1
                yield {**line, "position": after}
            if lines:
                yield _board(store, aid)
            if "finished_at" in store.meta(aid) and after >= store.feed_length(aid):
                yield {"type": "arena_finished", "games": after}
                return
            remaining = ends - clock()
            if remaining <= 0:
                return
            if listener.wait(min(keepalive_s, remaining)) is None:
                yield None


def _board(store: ArenaStore, aid: str) -> dict:
    found = arenas.describe(store, aid)
    return {"type": "leaderboard", "status": found["status"], "leaderboard": found["leaderboard"]}
