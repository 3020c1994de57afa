"""Fit the keltis-card search's evaluation on greedy self-play; print the fitted weights.

Plays `GAMES` greedy games per player count (2, 3, 4; fixed seeds), keeps each seat's
positions at its play steps, and fits by least squares (a grid) the two weights of
`domain.search.card_sim.estimate` (FIT_SHARE: share of the hand's fitting cards expected to be
laid; GROWTH: cards a row gains per turn left) to each seat's final score; then the scale of
the reward's squash, sigmoid(margin / MARGIN_SCALE), by maximum likelihood of the seat's
win given its estimated margin. Deterministic; about a minute of CPU.

    python -m scripts.fit_card_estimate 100
"""

from __future__ import annotations

import hashlib
import random
import sys
from math import exp, log

from domain.autoplay import play_to_end
from domain.chance import Chance
from domain.registry import get_rules
from domain.search import card, card_sim

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 150
SAMPLE_EVERY = 3  # play steps between kept positions of a game


def positions() -> list[tuple]:
    """(state, seat, seat's final score, seat's win share) of positions of greedy games."""
    rules = get_rules("keltis-card")
    found = []
    for players in (2, 3, 4):
        for number in range(GAMES):
            seed = hashlib.sha256(f"fit-card:{players}:{number}".encode()).digest()
            chance = Chance(seed)
            state = rules.fold(rules.start(players, rules.normalize_options({}), chance))
            rng = random.Random(number)
            bots = [rules.bots["greedy"]] * players
            kept = []
            for index, turn in enumerate(
                play_to_end(rules, state, bots, chance, lambda _, rng=rng: rng)
            ):
                state = turn.state
                if state.step == "play" and index % (2 * SAMPLE_EVERY) == 0:
                    kept.append((state, state.to_move))
            result = rules.result(state)
            for kept_state, seat in kept:
                share = 1.0 / len(result["winners"]) if seat in result["winners"] else 0.0
                found.append((kept_state, seat, result["scores"][seat], share))
    return found


def _error(samples: list) -> float:
    return sum((card.estimate(s, seat) - final) ** 2 for s, seat, final, _ in samples)


def _likelihood(margins: list, scale: float) -> float:
    total = 0.0
    for margin, share in margins:
        p = min(1 - 1e-9, max(1e-9, 1.0 / (1.0 + exp(-margin / scale))))
        total += share * log(p) + (1 - share) * log(1 - p)
    return total


def main() -> None:
    samples = positions()
    before = (_error(samples) / len(samples)) ** 0.5
    grid = [(f / 20, g / 40) for f in range(2, 31) for g in range(1, 17)]
    best = min(grid, key=lambda pair: _fit(samples, *pair))
    card_sim.FIT_SHARE, card_sim.GROWTH = best
    rmse = (_error(samples) / len(samples)) ** 0.5
    margins = []
    for state, seat, _, share in samples:
        values = [card.estimate(state, s) for s in range(state.setup.players)]
        margins.append((values[seat] - max(v for s, v in enumerate(values) if s != seat), share))
    scale = max((s / 4 for s in range(4, 61)), key=lambda s: _likelihood(margins, s))
    print('"""The keltis-card evaluation\'s weights, fitted on greedy self-play by')
    print(
        f"scripts/fit_card_estimate.py ({GAMES} games per player count, {len(samples)} positions;"
    )
    print(f"root mean square error of the final score {rmse:.2f} points; hand-set weights")
    print(f'before the fit: {before:.2f})."""')
    print()
    print(f"FIT_SHARE = {best[0]}")
    print(f"GROWTH = {best[1]}")
    print(f"MARGIN_SCALE = {scale}")


def _fit(samples: list, fit_share: float, growth: float) -> float:
    card_sim.FIT_SHARE, card_sim.GROWTH = fit_share, growth
    return _error(samples)


if __name__ == "__main__":
    main()
