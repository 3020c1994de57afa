"""An arena of two built-in bots on `private_redis` (flushed before each test, so no arena
of these tests is seen by the workers other tests start), and games of it claimed and
recorded as the workers' pass does (store.arenas.records)."""

from __future__ import annotations

import pytest

from application.arenas import service as arenas
from store.arenas.records import ArenaStore
from store.core.clock import now_ms

GREEDY, RANDOM = arenas.BOT_PREFIX + "greedy", arenas.BOT_PREFIX + "random"


@pytest.fixture
def store(private_redis) -> ArenaStore:
    return ArenaStore(private_redis)


@pytest.fixture
def aid(store) -> str:
    request = {"name": "test arena", "game": "keltis-card", "bots": ["greedy", "random"]}
    return arenas.open_arena(store, {**request, "ends_at": now_ms() + 3_600_000})["id"]


def claimed(store: ArenaStore, aid: str) -> str:
    """A new game of the two bots (both waiting): its id."""
    game_id = store.claim(aid, [GREEDY, RANDOM], {}, f"{aid}-g", now_ms())
    assert game_id is not None
    return game_id


def played(store: ArenaStore, aid: str, winner: str = GREEDY) -> dict:
    """A game of the two bots claimed and recorded, `winner` winning: its feed line."""
    game_id = claimed(store, aid)
    names = {GREEDY: "greedy", RANDOM: "random"}
    line = {
        "type": "game_finished",
        "game": game_id,
        "players": [names[GREEDY], names[RANDOM]],
        "scores": [10, 5] if winner == GREEDY else [5, 10],
        "winners": [0] if winner == GREEDY else [1],
        "forfeited": [],
        "ended": None,
        "void": None,
    }
    seats = [
        {"account": a, "name": names[a], "win": a == winner, "score": s, "forfeited": False}
        for a, s in zip((GREEDY, RANDOM), line["scores"], strict=True)
    ]
    assert store.record(aid, game_id, line, seats, arenas.PAUSE_AFTER_FORFEITS, now_ms())
    return line
