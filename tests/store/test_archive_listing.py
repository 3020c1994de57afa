"""The listings walk Redis's sets and the archive tier's rows together in
one order (store.core.cursor: created_at, then id bytewise, newest first), whatever the page
size and wherever a cursor points: ties of created_at, ids that sort differently in a
locale's collation than bytewise, a fractional score, a member that is not UTF-8."""

from __future__ import annotations

import pytest

from store import keys
from store.archive.listing import page_with_scores
from store.archive.tier import ArchivedGame
from store.core.cursor import Position

IN_REDIS = {"Bbbbbbbbbbbbbbbb": 5, "aaaaaaaaaaaaaaaa": 5, "z-zzzzzzzzzzzzzz": 3, "Mmmmmmmmmm": 7}
ARCHIVED = {"Aaaaaaaaaaaaaaaa": 5, "bbbbbbbbbbbbbbbb": 5, "_ccccccccccccccc": 5, "q" * 16: 4}
BOTH = {"dddddddddddddddd": 5}  # caught between its copy and its removal from Redis


def row(game_id: str, created_at: int) -> ArchivedGame:
    return ArchivedGame(
        game_id, "keltis-dice", "finished", created_at, created_at, 1, [], b"{}", b""
    )


@pytest.fixture
def listing(private_redis, archive):
    private_redis.zadd(keys.games_by_created(), {**IN_REDIS, **BOTH})
    for game_id, created_at in {**ARCHIVED, **BOTH}.items():
        archive.put(row(game_id, created_at))
    return private_redis, archive


def expected(after: Position | None = None) -> list[str]:
    every = {**IN_REDIS, **ARCHIVED, **BOTH}
    order = sorted(every, key=lambda g: (every[g], g.encode()), reverse=True)
    if after is None:
        return order
    member = after.member if isinstance(after.member, bytes) else after.member.encode()
    return [g for g in order if (every[g], g.encode()) < (after.score, member)]


def walk(client, archive, after: Position | None, limit: int) -> list[str]:
    seen = []
    while True:
        ids, _, after = page_with_scores(client, archive, keys.games_by_created(), after, limit)
        assert len(ids) <= limit
        seen += ids
        if after is None:
            return seen


@pytest.mark.parametrize("limit", [1, 2, 3, 50])
def test_a_walk_meets_every_game_once_in_the_order_of_the_cursors(listing, limit):
    client, archive = listing
    assert walk(client, archive, None, limit) == expected()


@pytest.mark.parametrize(
    "after",
    [
        Position(5, "bbbbbbbbbbbbbbbb"),
        Position(5, "Bbbbbbbbbbbbbbbb"),
        Position(5.5, "x"),
        Position(5, b"\xff\xfe"),
        Position(5, ""),
        Position(4, "q" * 16),
    ],
)
def test_a_walk_from_any_position_goes_on_strictly_after_it(listing, after):
    client, archive = listing
    assert walk(client, archive, after, 2) == expected(after)
