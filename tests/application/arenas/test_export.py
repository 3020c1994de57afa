"""The export's walk over one arena's games (application.arenas.export): newest first, in
pages of PAGE, strictly below a cursor; an unknown or malformed arena id is not found."""

from __future__ import annotations

import pytest

from application.arenas import export
from application.arenas.errors import ArenaNotFound
from store.core.cursor import Position
from tests.application.arenas.conftest import claimed, played


def _ids(pages) -> list[list[str]]:
    return [[game_id for game_id, _ in page] for page in pages]


def test_an_arena_without_games_yields_no_page(store, aid):
    assert list(export.arena_walk(store.client, aid, None)) == []


def test_the_games_come_newest_first_each_with_its_number(store, aid):
    first, second = played(store, aid)["game"], claimed(store, aid)
    (page,) = export.arena_walk(store.client, aid, None)
    assert page == [(second, Position(2, second)), (first, Position(1, first))]


def test_a_cursor_walks_strictly_below_it(store, aid):
    ids = [played(store, aid)["game"] for _ in range(3)]
    pages = export.arena_walk(store.client, aid, Position(3, ids[2]))
    assert _ids(pages) == [[ids[1], ids[0]]]
    assert _ids(export.arena_walk(store.client, aid, Position(1, ids[0]))) == []


def test_a_long_arena_comes_in_pages_of_the_limit(store, aid, monkeypatch):
    monkeypatch.setattr(export, "PAGE", 2)
    ids = [played(store, aid)["game"] for _ in range(5)]
    assert _ids(export.arena_walk(store.client, aid, None)) == [
        [ids[4], ids[3]],
        [ids[2], ids[1]],
        [ids[0]],
    ]


@pytest.mark.parametrize("unknown", ["no-such-arena-id", "bad id!"])
def test_an_unknown_arena_is_not_found_before_any_page(store, unknown):
    walk = export.arena_walk(store.client, unknown, None)
    with pytest.raises(ArenaNotFound):
        next(walk)
