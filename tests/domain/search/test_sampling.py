"""The search over candidates: a race drops candidates clearly worse than the leader on the
same samples, and never the leader or a close one."""

from __future__ import annotations

import random

from domain.search.budget import IterationBudget
from domain.search.sampling import Race, search


def test_a_race_keeps_the_leader_and_close_candidates():
    rng = random.Random(3)
    luck = [rng.random() for _ in range(32)]
    rewards = [
        luck,  # the leader
        [x + 0.01 * (-1) ** i for i, x in enumerate(luck)],  # as good on average
        [x - 0.2 for x in luck],  # worse on every sample
        [1.0 - x for x in luck],  # no better on average, far noisier
    ]
    assert Race(16, 2.0).contenders([0, 1, 2, 3], rewards) == [0, 1, 3]
    assert Race(16, 2.0).contenders([1, 2], rewards) == [1]


class Toy:
    """A game of one decision: move m earns m / 10 plus the sample's luck."""

    def __init__(self, race):
        self.race = race
        self.played = []

    def candidates(self, view, legal_moves):
        return legal_moves

    def determinize(self, view, rng):
        return rng.random(), None

    def step(self, state, move, chance):
        self.played.append(move)
        return state + move / 10

    def rollout(self, state, chance, rng):
        return [state]


def test_a_raced_search_spends_its_samples_on_the_contenders():
    moves = [0, 1, 2, 9]
    plain, raced = Toy(None), Toy(Race(4, 2.0))
    for game in (plain, raced):
        assert search(game, {"to_move": 0}, moves, random.Random(1), IterationBudget(40)) == 9
    assert plain.played.count(0) == 40
    assert raced.played.count(0) == 4 and raced.played.count(9) == 40
