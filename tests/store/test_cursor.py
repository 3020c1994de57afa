"""Cursor paging (store.core.cursor) on a real Redis nobody else writes to (`private_redis`): a
walk meets every game that stays listed exactly once, newest first, while games are created
and finished during it; cursors are opaque and a forged one is refused."""

from __future__ import annotations

import random
import threading
import time
from dataclasses import replace

import pytest

from store.core.cursor import BadCursor, Pager, Position
from store.games import index
from tests.store.test_index import listed, write


def newest_first(games) -> list[str]:
    return [g.game_id for g in sorted(games, key=lambda g: (g.created_at, g.game_id))][::-1]


def walk(client, status, limit, began: threading.Event | None = None) -> list[str]:
    """Every page of a listing, each cursor passed through its opaque text form; `began` is
    set once the first page is read, and the walk then pauses a moment after each page (so
    that a writer thread gets turns between them)."""
    ids, cursor = [], None
    while True:
        after = Position.decode(cursor) if cursor else None
        page, position = index.list_games(client, status, None, after, limit)
        ids += [game["id"] for game in page]
        if began is not None:
            began.set()
            time.sleep(0.002)
        if position is None:
            return ids
        cursor = position.encode()


def test_cursor_walk_orders_games_created_in_the_same_millisecond_by_id(private_redis):
    games = [listed(f"g{n:02d}", 1000 + n // 4, "active") for n in range(23)]  # ties of 4
    write(private_redis, *((g, None) for g in random.Random(1).sample(games, len(games))))
    expected = [g.game_id for g in sorted(games, key=lambda g: (g.created_at, g.game_id))][::-1]
    for limit in (1, 3, 4, 5, 100):
        assert walk(private_redis, None, limit) == expected
        assert walk(private_redis, "active", limit) == expected


def test_cursor_goes_on_after_its_game_left_the_listing(private_redis):
    games = [listed(f"g{n}", 1000 + n // 2, "active") for n in range(8)]
    write(private_redis, *((g, None) for g in games))
    first, position = index.list_games(private_redis, "active", None, None, 3)
    assert [g["id"] for g in first] == ["g7", "g6", "g5"] and position == Position(1002, "g5")
    gone = replace(games[5], version=2, fixed_status="finished")
    write(private_redis, (gone, games[5]))
    rest, end = index.list_games(private_redis, "active", None, position, 10)
    assert [g["id"] for g in rest] == ["g4", "g3", "g2", "g1", "g0"] and end is None


def test_no_game_is_skipped_or_repeated_while_games_are_created_and_finished_during_the_walk(
    private_redis,
):
    """The promise (openapi.yaml, Cursor): unfiltered, the walk lists exactly the games that
    existed when it began, each once, newest first. Filtered by status: each game at most
    once, in order; every game that kept the status through the walk is listed; a game it
    lists had the status when the walk passed it."""
    rng = random.Random(15)
    games = [listed(f"g{n:04d}", 10_000 + n // 3, "active") for n in range(600)]
    write(private_redis, *((g, None) for g in games))
    finished: set[str] = set()
    made: list = []

    def churn(began: threading.Event, stop: threading.Event) -> None:
        """Once the walk has read its first page: create newer games and finish random older
        ones until the walk is over."""
        writer = type(private_redis)(connection_pool=private_redis.connection_pool)
        began.wait()
        while not stop.is_set():
            new = listed(f"n{len(made):05d}", 50_000 + len(made) // 2, "active")
            made.append(new)
            old = rng.choice(games)
            if old.game_id in finished:
                write(writer, (new, None))
                continue
            finished.add(old.game_id)
            write(writer, (new, None), (replace(old, version=2, fixed_status="finished"), old))

    def walk_during_churn(status, limit) -> list[str]:
        began, stop = threading.Event(), threading.Event()
        thread = threading.Thread(target=churn, args=(began, stop))
        thread.start()
        try:
            return walk(private_redis, status, limit, began)
        finally:
            began.set()
            stop.set()
            thread.join()

    everything = walk_during_churn(None, 7)
    assert everything == newest_first(games)
    assert len(made) > 20 and len(finished) > 20  # the churn ran during the walk

    existing = newest_first(games + made)  # the games when the filtered walk begins
    finished_before = set(finished)
    active = walk_during_churn("active", 5)
    assert len(finished) > len(finished_before) + 20
    assert len(active) == len(set(active))
    assert [g for g in existing if g in set(active)] == active  # in the walk's order
    kept = {g for g in existing if g not in finished}
    assert kept <= set(active) <= set(existing) - finished_before


def test_a_cursor_is_opaque_and_round_trips():
    position = Position(1_700_000_000_123, "abc-DEF_9")
    text = position.encode()
    assert "abc" not in text and Position.decode(text) == position
    rating = Position(12.345678901234567, "account:alpha")
    assert Position.decode(rating.encode()) == rating


@pytest.mark.parametrize(
    "forged",
    ["", "0", "-1", "9" * 15, "9" * 17, "!!!!", "W10", "WzEsMl0", "x" * 500,
     "7ff0000000000000AA", "fff8000000000000AA", "0000000000000000A=", "0" * 16 + "A" * 269],
)  # fmt: skip
def test_a_string_not_of_a_cursors_form_is_refused(forged):
    with pytest.raises(BadCursor):
        Position.decode(forged)


@pytest.mark.parametrize("cursor", ["9" * 30, "0" * 18, "c00a000000000000_-_-", "1" * 16 + "ww"])
def test_any_string_of_a_cursors_form_names_a_position_to_walk_after(private_redis, cursor):
    """The contract states the form (openapi.yaml, Cursor): every string of it is accepted,
    as a position in the walk's order (a schema-valid request is never refused)."""
    key = "keltis:test:cursor-any"
    private_redis.zadd(key, {"a": 1.0, "b": 2.0})
    position = Position.decode(cursor)
    assert Position.decode(position.encode()) == position
    members, _ = Pager(private_redis).page(key, position, 5)
    assert set(members) <= {"a", "b"}


def test_a_page_after_a_rating_that_is_not_a_whole_number(private_redis):
    key = "keltis:test:cursor-floats"
    private_redis.zadd(key, {"a": 1.5, "b": 1.5, "c": 0.1 + 0.2, "d": -3.25})
    pager = Pager(private_redis)
    first, position = pager.page(key, None, 2)
    assert first == ["b", "a"]
    rest, end = pager.page(key, Position.decode(position.encode()), 5)
    assert (rest, end) == (["c", "d"], None)
