"""Reading the ladder's ratings (application.ladder.ratings): a game type's listing by
ordinal, highest first, paged, each row saying whether it is an account and a bot (a built-in
bot, or a bot account); an account's ratings per game type it played; an unknown game
refused."""

from __future__ import annotations

import pytest

from application.common.errors import UnknownGame
from application.games.settle import settle_due
from application.ladder import ratings
from ladder.display import shown_rating
from ladder.fold import Rating
from store.core.cursor import Position
from tests.application.played import CARD, DICE, resigned
from tests.ladder.conftest import finish_bot_game


@pytest.fixture
def ladder(games, accounts):
    """Card games: Botty (a bot account) beat Bela twice; greedy and random played once."""
    made = {"Botty": accounts.sign_up("Botty", bot=True, webhook=None).key}
    made["Bela"] = accounts.sign_up("Bela", bot=False, webhook=None).key
    for _ in range(2):
        resigned(games, [{"account": "Botty"}, {"account": "Bela"}], made, "Bela", rated=True)
    finish_bot_game(games, ["greedy", "random"])
    settle_due(games)
    return made


def _walk(client, game, limit) -> list[list[dict]]:
    pages, after = [], None
    while True:
        rows, cursor = ratings.ratings_page(client, game, after, limit)
        pages.append(rows)
        if cursor is None:
            return pages
        after = Position.decode(cursor)


def test_the_listing_is_highest_ordinal_first_with_who_each_one_is(games, ladder):
    rows, cursor = ratings.ratings_page(games.client, CARD, None, 10)
    assert cursor is None
    ordinals = [row["ordinal"] for row in rows]
    assert ordinals == sorted(ordinals, reverse=True)
    by_name = {row["name"]: row for row in rows}
    assert set(by_name) == {"Botty", "Bela", "greedy", "random"}
    assert (by_name["Botty"]["account"], by_name["Botty"]["bot"]) == (True, True)
    assert (by_name["Bela"]["account"], by_name["Bela"]["bot"]) == (True, False)
    assert (by_name["greedy"]["account"], by_name["greedy"]["bot"]) == (False, True)
    assert by_name["Botty"]["ordinal"] > by_name["Bela"]["ordinal"]
    assert by_name["Botty"]["games"] == 2 and by_name["Botty"]["provisional"] is True
    assert by_name["Bela"]["rating"] == shown_rating(by_name["Bela"]["ordinal"])


def test_the_listing_pages_by_cursor_each_row_once(games, ladder):
    whole, _ = ratings.ratings_page(games.client, CARD, None, 10)
    pages = _walk(games.client, CARD, 3)
    assert [len(page) for page in pages] == [3, 1]
    assert [row for page in pages for row in page] == whole


def test_a_game_type_nobody_played_rated_lists_nobody(games, ladder):
    assert ratings.ratings_page(games.client, DICE, None, 10) == ([], None)


def test_an_unknown_game_type_is_refused(games):
    with pytest.raises(UnknownGame):
        ratings.ratings_page(games.client, "chess", None, 10)


def test_an_accounts_ratings_are_per_game_type_played_without_its_name(games, ladder):
    found = ratings.account_ratings(games.client, "BOTTY")
    assert set(found) == {CARD}
    assert set(found[CARD]) == {"mu", "sigma", "ordinal", "games", "rating", "provisional"}
    assert found[CARD]["games"] == 2
    assert ratings.account_ratings(games.client, "nobody") == {}


def test_a_rating_is_shown_provisional_under_ten_games():
    rating = Rating("x", False, 25.0, 8.0, 9)
    assert ratings.shown(rating)["provisional"] is True
    assert ratings.shown(Rating("x", False, 25.0, 8.0, 10))["provisional"] is False
    assert (ratings.shown(rating)["account"], ratings.shown(rating)["bot"]) == (True, False)
    assert ratings.shown(rating, bot_account=True)["bot"] is True
    assert ratings.shown(rating)["ordinal"] == pytest.approx(1.0)
