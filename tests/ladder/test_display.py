"""The one rating people see (ladder.display): a newcomer at 1500, 40 points a point of
ordinal, provisional under 10 rated games."""

from __future__ import annotations

from ladder.display import PROVISIONAL_GAMES, provisional, shown_rating
from ladder.fold import Rating


def test_a_newcomer_is_shown_1500_and_provisional():
    newcomer = Rating("ann", False, 25.0, 25.0 / 3, 0)
    assert shown_rating(newcomer.ordinal) == 1500
    assert provisional(newcomer.games)


def test_the_shown_rating_follows_the_ordinal_in_whole_points():
    assert shown_rating(10.0) == 1900 and shown_rating(-2.5) == 1400
    assert shown_rating(0.0124) == 1500  # rounded: a whole number everywhere
    assert shown_rating(-1.0) < shown_rating(0.0) < shown_rating(1.0)


def test_a_rating_stops_being_provisional_at_ten_games():
    assert provisional(PROVISIONAL_GAMES - 1) and not provisional(PROVISIONAL_GAMES)
