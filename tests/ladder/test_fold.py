"""The ladder's pure parts: entries, ranks, and ratings as the fold of the entries."""

from __future__ import annotations

import math

from domain.ranking import ranks
from ladder.entries import LadderEntry, LadderSeat, participant_id
from ladder.fold import fold, rate, rated_seats


def seat(name, rank, bot=True, score=None, forfeited=False):
    return LadderSeat(name, bot, score, rank, rank == 1, forfeited)


def entry(game_id, *seats, game="keltis-card"):
    return LadderEntry(game_id, game, 1000, tuple(seats))


def test_ranks_put_forfeited_seats_last_and_share_ties():
    assert ranks([10, 30, 30, 5], [False, False, False, False]) == [3, 1, 1, 4]
    assert ranks([50, 10, 20], [True, False, False]) == [3, 2, 1]
    assert ranks([None, None, None], [False, True, False]) == [1, 3, 1]


def test_a_participant_is_an_account_or_a_bot_ignoring_case():
    assert participant_id("AlphaBot", bot=False) == participant_id("alphabot", bot=False)
    assert participant_id("greedy", bot=True) != participant_id("greedy", bot=False)


def test_an_entry_survives_its_json_exactly():
    found = entry("g1", seat("greedy", 1, score=12.5), seat("Ann", 2, bot=False, score=-3))
    assert LadderEntry.from_json(found.to_json()) == found


def test_the_winner_gains_and_the_loser_loses():
    ratings, touched = fold([entry("g1", seat("greedy", 1), seat("random", 2))])
    greedy = ratings[("keltis-card", "bot:greedy")]
    random_ = ratings[("keltis-card", "bot:random")]
    assert greedy.mu > 25 > random_.mu
    assert greedy.games == random_.games == 1
    assert math.isclose(greedy.ordinal, greedy.mu - 3 * greedy.sigma)
    assert touched == set(ratings)


def test_ratings_are_kept_per_game_type():
    ratings, _ = fold(
        [
            entry("g1", seat("greedy", 1), seat("random", 2)),
            entry("g2", seat("greedy", 2), seat("random", 1), game="keltis-dice"),
        ]
    )
    assert ratings[("keltis-card", "bot:greedy")].mu > 25
    assert ratings[("keltis-dice", "bot:greedy")].mu < 25


def test_folding_in_parts_equals_folding_at_once_bit_for_bit():
    entries = [
        entry(f"g{n}", seat("greedy", 1 + n % 2), seat("random", 2 - n % 2), seat("Ann", 3, False))
        for n in range(30)
    ]
    whole, _ = fold(entries)
    first, _ = fold(entries[:11])
    parts, _ = fold(entries[11:], first)
    assert parts == whole  # floats compared exactly


def test_a_participant_in_several_seats_is_rated_once_at_its_best_seat():
    game = entry("g1", seat("greedy", 3), seat("random", 2), seat("greedy", 1))
    assert [s.rank for s in rated_seats(game)] == [2, 1]
    changed = rate(game, {})
    assert changed[("keltis-card", "bot:greedy")].games == 1
    assert rate(entry("g2", seat("greedy", 1), seat("greedy", 2)), {}) == {}
