"""The search of the `mcts` bots: Monte Carlo over determinizations of the information set,
with the root moves compared on common random numbers.

Each iteration samples one determinization of what the searching seat cannot see (the game
adapter's `determinize`: the hidden cards for keltis-card; the future rolls, as a fresh
chance source, for both games) and one rollout seed, then plays every candidate root move
in that same world followed by the same short rollout of the adapter's policy, and scores
the position with the adapter's evaluation (a reward in [0, 1] per seat). Comparing the
candidates on the same samples cancels most of the luck of the draw, which otherwise
drowns the small differences between good moves. The candidates are the few best moves of
the game's greedy heuristic; the move played is the one with the best mean reward. A game
may set `race` (a `Race`): candidates clearly worse than the leader on the samples so far
are then dropped, and the remaining iterations go to the contenders.
Pure: the randomness is `rng`, the only clock is the budget's (domain.search.budget).
"""

from __future__ import annotations

import random
from math import sqrt
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

    # Optional: `race`, a `Race` that drops clearly worse candidates (none: search all).


def search(game: Game, view: dict, legal_moves: list, rng, budget) -> dict:
    """The move of `legal_moves` the search prefers, within `budget`."""
    if len(legal_moves) == 1:
        return legal_moves[0]
    candidates = game.candidates(view, legal_moves)
    if len(candidates) == 1:
        return candidates[0]
    seat = view["to_move"]
    race = getattr(game, "race", None)
    rewards: list[list[float]] = [[] for _ in candidates]
    alive = list(range(len(candidates)))
    more = budget.start()
    done = 0
    while more(done):
        state, chance = game.determinize(view, rng)
        seed = rng.getrandbits(64)
        for index in alive:
            after = game.step(state, candidates[index], chance)
            rewards[index].append(game.rollout(after, chance, random.Random(seed))[seat])
        done += 1
        if race is not None and done % race.every == 0 and len(alive) > 1:
            alive = race.contenders(alive, rewards)
    best = max(alive, key=lambda i: (sum(rewards[i]), -i))
    return candidates[best]


class Race:
    """Stop searching candidates that are clearly worse than the best so far: every `every`
    iterations, a candidate whose mean paired difference to the leader (same samples) is
    more than `z` standard errors below zero is dropped."""

    def __init__(self, every: int, z: float):
        self.every = every
        self.z = z

    def contenders(self, alive: list[int], rewards: list[list[float]]) -> list[int]:
        """The candidates of `alive` still in the race (the leader always)."""
        leader = max(alive, key=lambda i: (sum(rewards[i]), -i))
        best = rewards[leader]
        count = len(best)
        kept = []
        for index in alive:
            if index == leader:
                kept.append(index)
                continue
            diffs = [mine - top for mine, top in zip(rewards[index], best, strict=True)]
            mean = sum(diffs) / count
            spread = sum((d - mean) ** 2 for d in diffs) / (count - 1)
            if mean + self.z * sqrt(spread / count) >= 0.0:
                kept.append(index)
        return kept
