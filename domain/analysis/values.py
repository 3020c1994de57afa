"""The evaluator of game analysis: each move's expected score margin from one seat's view.

`move_values(view, legal_moves, rng, budget)` samples determinizations of what the seat
cannot see (the tree search's own: domain.search.card `determinize` and
domain.search.dice_tree's, which read the view only), plays every given move in each sampled
world followed by the same rollout of the greedy policy to the game's end (common random
numbers: the same world and rollout seed for every move), and averages the final margin: the
seat's score minus the best other seat's score, in points. Pure; the randomness is `rng`,
the stop is `budget` (domain.search.budget; analysis uses an IterationBudget, so it is
reproducible).
"""

from __future__ import annotations

import random

from domain.dice.state import FINISHED as DICE_FINISHED

MAX_ROLLOUT_STEPS = 2000  # a rollout that has not ended by then is scored where it stopped


def _margin(scores: list[float], seat: int) -> float:
    return scores[seat] - max(s for i, s in enumerate(scores) if i != seat)


class CardRollout:
    """keltis-card: the search's determinization, then greedy to the end (K1-K3 scores), on
    the search's fast position (domain.search.card_sim)."""

    def __init__(self):
        from domain.analysis.candidates import card_candidates
        from domain.search import card, card_policy
        from domain.search.card_sim import CardSim

        self.search = card
        self.greedy_code = card_policy.greedy_code
        self.position = CardSim.of
        self.candidates = card_candidates

    def world(self, view: dict, rng):
        return self.position(self.search.determinize(view, rng)), None

    def after(self, world, move, chance):
        from domain.card.commands import parse

        after = world.copy()  # the world is shared by every move valued
        after.play(parse(move).code)
        return after

    def margin(self, sim, chance, rng, seat: int) -> float:
        for _ in range(MAX_ROLLOUT_STEPS):
            if sim.stuck():
                break
            sim.play(self.greedy_code(sim, rng))
        return _margin([sim.score(s) for s in range(sim.players)], seat)


class DiceRollout:
    """keltis-dice: the view's position with fresh future dice, then greedy to the end."""

    def __init__(self):
        from domain.analysis.candidates import dice_candidates
        from domain.search.dice_tree import GAME

        self.search = GAME
        self.candidates = dice_candidates

    def world(self, view: dict, rng):
        return self.search.determinize(view, rng)

    def after(self, world, move, table):
        after = world.copy()  # the world is shared by every move valued
        after.table = table
        after.play(move)
        return after

    def margin(self, sim, table, rng, seat: int) -> float:
        for _ in range(MAX_ROLLOUT_STEPS):
            if sim.stage == DICE_FINISHED:
                break
            sim.play(sim.greedy_move())
        return _margin([sim.score(s) for s in range(sim.players)], seat)


def rollout_of(view: dict):
    """The rollout adapter of the view's game."""
    return CardRollout() if view["game"] == "keltis-card" else DiceRollout()


def move_values(view: dict, legal_moves: list, rng, budget) -> list[tuple[dict, float]]:
    """[(move, expected points)] for every move of `legal_moves`, in their order: the mean
    final margin (own score minus the best other score) after playing it from `view`, over
    the determinizations `budget` allows (at least one)."""
    if not legal_moves:
        return []
    seat = view["to_move"]
    game = rollout_of(view)
    totals = [0.0] * len(legal_moves)
    more = budget.start()
    done = 0
    while more(done):
        world, chance = game.world(view, rng)
        seed = rng.getrandbits(64)
        for index, move in enumerate(legal_moves):
            after = game.after(world, move, chance)
            totals[index] += game.margin(after, chance, random.Random(seed), seat)
        done += 1
    return [(move, total / done) for move, total in zip(legal_moves, totals, strict=True)]


def candidates(view: dict, legal_moves: list) -> list:
    """The moves worth valuing: the search's own candidates of the view's game."""
    return rollout_of(view).candidates(view, legal_moves)


__all__ = ["MAX_ROLLOUT_STEPS", "candidates", "move_values"]
