"""Rated games between the same two accounts, pure (ladder.pairs): a pair's k-th game in 24 h
moves ratings 1/k of openskill's update and nothing past the daily limit; which wins are
quick and which gains suspicious. No Redis."""

from __future__ import annotations

import itertools

import pytest

from ladder.entries import LadderEntry, LadderSeat
from ladder.fold import fold, rate
from ladder.pairs import (
    PAIR_DAILY_LIMIT,
    WINDOW_MS,
    PairResult,
    blend,
    game_number,
    pair_of,
    pair_weight,
    suspicious_gains,
)

A, B = "account:ann", "account:bob"


def resigned(game_id: str, k: int = 1) -> LadderEntry:
    """Ann resigns to Bob: Bob first, Ann last, forfeited."""
    seats = (
        LadderSeat("Ann", False, None, 2, False, True),
        LadderSeat("Bob", False, None, 1, True, False),
    )
    return LadderEntry(game_id, "keltis-card", 1_000, seats, k)


def test_the_kth_game_of_a_pair_weighs_one_kth_and_nothing_past_the_limit():
    assert [pair_weight(k) for k in (1, 2, 4)] == [1.0, 0.5, 0.25]
    assert pair_weight(PAIR_DAILY_LIMIT) == 1 / PAIR_DAILY_LIMIT
    assert pair_weight(PAIR_DAILY_LIMIT + 1) == 0.0
    with pytest.raises(ValueError):
        pair_weight(0)


def test_blend_moves_the_given_share_of_the_way():
    assert blend(10.0, 14.0, 1.0) == 14.0
    assert blend(10.0, 14.0, 0.25) == 11.0
    assert blend(10.0, 14.0, 0.0) == 10.0


def test_a_pairs_later_game_moves_ratings_by_its_weight_of_the_update():
    first = rate(resigned("g1"), {})
    halved = rate(resigned("g1", k=2), {})
    bob = ("keltis-card", B)
    fresh_mu = 25.0
    assert halved[bob].mu - fresh_mu == pytest.approx((first[bob].mu - fresh_mu) / 2)
    assert halved[bob].games == 1
    assert rate(resigned("g1", k=PAIR_DAILY_LIMIT + 1), {}) == {}


def test_six_resignations_gain_less_each_time_and_far_less_than_unweighted():
    ratings: dict = {}
    plain: dict = {}
    gains = []
    bob = ("keltis-card", B)
    for k in range(1, 7):
        before = ratings[bob].ordinal if bob in ratings else 0.0
        ratings, _ = fold([resigned(f"g{k}", k)], ratings)
        plain, _ = fold([resigned(f"g{k}")], plain)
        gains.append(ratings[bob].ordinal - before)
    assert all(later < earlier for earlier, later in itertools.pairwise(gains))
    assert all(gain <= gains[0] / k for k, gain in enumerate(gains, start=1))
    assert plain[bob].ordinal > 12  # the farm as it was: 0 to about 12.9 in six games
    assert ratings[bob].ordinal < 0.6 * plain[bob].ordinal  # about 7.0


def test_an_entrys_pair_game_survives_its_json_and_is_left_out_when_1():
    assert "pair_game" not in resigned("g1").to_json()
    again = LadderEntry.from_json(resigned("g1", k=3).to_json())
    assert again.pair_game == 3
    assert LadderEntry.from_json(resigned("g1").to_json()).pair_game == 1


def test_a_pair_is_two_accounts_and_nothing_else():
    assert pair_of([B, A]) == (A, B)
    assert pair_of([A, A]) is None
    assert pair_of([A, "bot:greedy"]) is None
    assert pair_of([A, B, "account:cy"]) is None


def test_k_counts_the_pairs_results_of_the_window_before_it_once():
    results = [PairResult(f"g{n}", n * 1000, B, A, True) for n in range(1, 5)]
    assert game_number(results[0], results) == 1
    assert game_number(results[3], results) == 4
    late = PairResult("late", 1000 + WINDOW_MS, B, A, True)
    assert game_number(late, [*results, late]) == 4  # g1 fell out of the window


def test_three_quick_wins_over_one_opponent_are_suspicious_slow_ones_are_not():
    quick = [PairResult(f"q{n}", n, B, A, True) for n in range(1, 4)]
    slow = [PairResult(f"s{n}", 10 + n, A, B, False) for n in range(1, 5)]
    found = suspicious_gains("keltis-card", quick + slow, since=0)
    assert [(g.winner, g.loser, g.quick_wins, g.games) for g in found] == [(B, A, 3, 7)]
    assert found[0].game_ids == ("q1", "q2", "q3")
    assert suspicious_gains("keltis-card", quick[:2] + slow, since=0) == []
    assert suspicious_gains("keltis-card", quick, since=1) == []  # q1 before the window
