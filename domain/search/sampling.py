"""The search of the `mcts` bots: Monte Carlo over determinizations of the information set,
with the root moves compared on common random numbers.

Each iteration samples one determinization of what the searching seat cannot see (the game
adapter's `determinize`: the hidden cards for keltis-card; the future rolls, as a fresh
chance source, for both games) and one rollout seed, then plays every candidate root move
in that same world followed by the same short rollout of the adapter's policy, and scores
the position with the adapter's evaluation (a reward in [0, 1] per seat). Comparing the
candidates on the same samples cancels most of the luck of the draw, which otherwise
drowns the small differences between good moves. The candidates are the few best moves of
the game's greedy heuristic; the move played is the one with the best mean reward.
Pure: the randomness is `rng`, the only clock is the budget's (domain.search.budget).
"""

from __future__ import annotations

import random
from typing import Protocol


class Game(Protocol):
    """What the search needs of a game (`domain.search.card`, `domain.search.dice`)."""

    def determinize(self, view: dict, rng) -> tuple:
        """(a state consistent with `view`, a chance source for everything not yet drawn)."""

    def candidates(self, view: dict, legal_moves: list) -> list:
        """The moves worth searching (the best few by a heuristic), best first."""

    def step(self, state, move, chance):
        """The state after the seat to move plays `move` (one of the legal moves)."""

    def rollout(self, state, chance, rng) -> list[float]:
        """A reward in [0, 1] per seat after a short playout from `state`."""


def search(game: Game, view: dict, legal_moves: list, rng, budget) -> dict:
    """The move of `legal_moves` the search prefers, within `budget`."""
    if len(legal_moves) == 1:
        return legal_moves[0]
    candidates = game.candidates(view, legal_moves)
    if len(candidates) == 1:
        return candidates[0]
    seat = view["to_move"]
    totals = [0.0] * len(candidates)
    more = budget.start()
    done = 0
    while more(done):
        state, chance = game.determinize(view, rng)
        seed = rng.getrandbits(64)
        for index, move in enumerate(candidates):
            after = game.step(state, move, chance)
            totals[index] += game.rollout(after, chance, random.Random(seed))[seat]
        done += 1
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    return candidates[best]
