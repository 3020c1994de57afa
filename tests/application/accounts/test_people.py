"""An account's public side (application.accounts.people): its games newest first, by
status, paged by a cursor that never names a sealed game; its rating history paged; an
unknown account or game refused."""

from __future__ import annotations

import itertools

import pytest

from application.accounts import people
from application.accounts.errors import AccountNotFound
from application.common.errors import UnknownGame
from application.games.service import GameService
from application.games.settle import settle_due
from store import keys
from store.core.clock import now_ms
from store.core.cursor import Position
from tests.application.played import CARD, DICE, resigned, seated

SEALED = {"id": "t-sealed", "index": 0, "deal": 0, "open": False, "deal_games": [0, 1]}


@pytest.fixture
def apart(private_redis):
    """A service making games a millisecond apart at least: games of one millisecond list
    by id, not in the order a test made them (as in two whole-suite runs)."""
    ticks = itertools.count(now_ms())
    return GameService(private_redis, clock=lambda: next(ticks))


@pytest.fixture
def made(accounts):
    return {n: accounts.sign_up(n, bot=False, webhook=None).key for n in ("Anna", "Bela")}


def _ids(page) -> list[str]:
    return [summary["id"] for summary in page[0]["games"]]


def _walk(client, name, status, limit) -> list[list[str]]:
    """Every page's game ids, following the cursors."""
    pages, after = [], None
    while True:
        page, cursor = people.games_page(client, name, status, after, limit)
        pages.append([summary["id"] for summary in page["games"]])
        if cursor is None:
            return pages
        after = Position.decode(cursor)


@pytest.fixture
def mixed(apart, made):
    """Anna's games, oldest first: finished, waiting (open seat), in play, finished."""
    duel = [{"account": "Anna"}, {"account": "Bela"}]
    first = resigned(apart, duel, made, "Bela").game_id
    waiting = seated(apart, [{"account": "Anna"}, {"open": True}]).game_id
    playing = seated(apart, [{"account": "Anna"}, {"bot": "greedy"}]).game_id
    last = resigned(apart, duel, made, "Anna").game_id
    return first, waiting, playing, last


def test_an_accounts_public_games_are_those_in_play_or_finished_newest_first(games, mixed):
    first, _, playing, last = mixed
    page = people.games_page(games.client, "ANNA", None, None, 10)
    assert page[0]["name"] == "Anna"
    assert _ids(page) == [last, playing, first]
    assert page[1] is None


def test_the_status_filter_lists_only_games_of_that_status(games, mixed):
    first, waiting, playing, last = mixed
    assert _ids(people.games_page(games.client, "anna", "active", None, 10)) == [playing]
    assert _ids(people.games_page(games.client, "anna", "finished", None, 10)) == [last, first]
    assert _ids(people.games_page(games.client, "anna", "waiting", None, 10)) == [waiting]


def test_pages_by_cursor_list_each_game_once_and_end_without_a_cursor(games, mixed):
    first, _, playing, last = mixed
    assert _walk(games.client, "anna", None, 1) == [[last], [playing], [first]]
    assert _walk(games.client, "anna", "finished", 1) == [[last], [first]]


def test_a_sealed_game_is_not_listed_and_no_cursor_names_it(games, apart, made):
    first = seated(apart, [{"account": "Anna"}, {"bot": "greedy"}]).game_id
    sealed = seated(apart, [{"account": "Anna"}, {"bot": "greedy"}], tournament=SEALED)
    last = seated(apart, [{"account": "Anna"}, {"bot": "greedy"}]).game_id
    page, cursor = people.games_page(games.client, "anna", None, None, 1)
    assert page["games"][0]["id"] == last
    assert Position.decode(cursor).member == last
    assert _walk(games.client, "anna", None, 1) == [[last], [first]]
    assert sealed.game_id not in {g for p in _walk(games.client, "anna", None, 5) for g in p}


def test_a_game_whose_summary_is_gone_is_skipped(games, made):
    gone = seated(games, [{"account": "Anna"}, {"bot": "greedy"}]).game_id
    kept = seated(games, [{"account": "Anna"}, {"bot": "greedy"}]).game_id
    games.client.hdel(keys.game_summaries(), gone)
    assert _ids(people.games_page(games.client, "anna", None, None, 5)) == [kept]
    # Paged one at a time, a last page may come back empty (the walk cannot tell the
    # unreadable game from a listed one before it reads it): still no game twice or gone.
    assert [g for page in _walk(games.client, "anna", None, 1) for g in page] == [kept]


def test_an_account_without_games_has_an_empty_page(games, made):
    assert people.games_page(games.client, "bela", None, None, 5) == (
        {"name": "Bela", "games": []},
        None,
    )


def test_an_unknown_account_is_not_found(games):
    with pytest.raises(AccountNotFound):
        people.games_page(games.client, "nobody", None, None, 5)
    with pytest.raises(AccountNotFound):
        people.rating_history(games.client, "nobody", CARD, None, 5)


def test_an_unknown_game_is_refused_before_the_account_is_read(games):
    with pytest.raises(UnknownGame):
        people.rating_history(games.client, "nobody", "chess", None, 5)


def test_the_rating_history_pages_newest_first_per_game(games, made):
    duel = [{"account": "Anna"}, {"account": "Bela"}]
    for loser in ("Bela", "Anna", "Bela"):
        resigned(games, duel, made, loser, rated=True)
    settle_due(games)
    history, before = people.rating_history(games.client, "anna", CARD, None, 2)
    assert history["name"] == "Anna" and history["game"] == CARD
    assert len(history["points"]) == 2 and before is not None
    rest, end = people.rating_history(games.client, "anna", CARD, int(before), 2)
    assert len(rest["points"]) == 1 and end is None
    points = history["points"] + rest["points"]
    assert [p["games"] for p in points] == [3, 2, 1]
    assert people.rating_history(games.client, "anna", DICE, None, 2) == (
        {"name": "Anna", "game": DICE, "points": []},
        None,
    )
