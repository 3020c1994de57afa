"""keltis-card for the tree search (`domain.search.ismcts.Game`) on the fast position of
`domain.search.card_sim`: determinizations of a seat's view (`domain.search.card.Dealer`),
the greedy heuristic's ranking as the prior and the greedy bot for the other seats and the
rollouts (`card_policy`: greedy's scores and moves on the position), and
`card_sim.estimate` at the end of a rollout."""

from __future__ import annotations

from math import exp

from domain.card.commands import COMMANDS, parse
from domain.search import card
from domain.search.card_policy import greedy_code, options
from domain.search.card_sim import CardSim, estimate

ROLLOUT_TURNS = 2  # each seat's turns (play and draw) played out before the evaluation
MARGIN_SCALE = 4.0  # points of estimated lead worth about 0.73 of a win


def margin_of(sim: CardSim, seat: int) -> float:
    """The seat's estimated score minus the best other seat's, in points."""
    values = [estimate(sim, s) for s in range(sim.players)]
    return values[seat] - max(v for s, v in enumerate(values) if s != seat)


class CardTree:
    """The `Game` of keltis-card for `domain.search.ismcts`."""

    def dealer(self, view: dict):
        deal = card.Dealer(view).sim
        return lambda rng: (deal(rng), None)

    def to_move(self, sim: CardSim) -> int | None:
        return None if sim.stuck() else sim.seat

    def ranked(self, sim: CardSim, rng) -> list:
        codes, scores = options(sim)
        if len(codes) == 1:
            return [COMMANDS[codes[0]]]
        order = sorted(range(len(codes)), key=lambda i: -scores[i])
        return [COMMANDS[codes[i]] for i in order]

    def policy(self, sim: CardSim, rng):
        return COMMANDS[greedy_code(sim, rng)]

    def fork(self, sim: CardSim) -> CardSim:
        return sim.copy()

    def step(self, sim: CardSim, move, chance) -> CardSim:
        sim.play(move.code)
        return sim

    def rollout(self, sim: CardSim, chance, rng, seat: int) -> tuple[float, float]:
        for _ in range(ROLLOUT_TURNS * sim.players * 2):
            if sim.stuck():
                break
            sim.play(greedy_code(sim, rng))
        margin = margin_of(sim, seat)
        return 1.0 / (1.0 + exp(-margin / MARGIN_SCALE)), margin

    def code(self, move) -> int:
        return parse(move).code


GAME = CardTree()
