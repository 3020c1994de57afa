"""keltis-card for the tree search (`domain.search.ismcts.Game`): determinizations of a
seat's view (`domain.search.card.determinize`), the greedy heuristic's ranking as the
prior (`card_greedy`, greedy's scores on the compact state), the greedy bot for the other
seats and the rollouts, and `card.estimate` at the end of a rollout."""

from __future__ import annotations

from math import exp

from domain.card.commands import legal_options, parse
from domain.card.state import FINISHED
from domain.search import card, card_greedy

ROLLOUT_TURNS = 2  # each seat's turns (play and draw) played out before the evaluation
MARGIN_SCALE = 4.0  # points of estimated lead worth about 0.73 of a win


def margin_of(state, seat: int) -> float:
    """The seat's estimated score minus the best other seat's, in points."""
    values = [card.estimate(state, s) for s in range(state.setup.players)]
    return values[seat] - max(v for s, v in enumerate(values) if s != seat)


class CardTree:
    """The `Game` of keltis-card for `domain.search.ismcts`."""

    def determinize(self, view: dict, rng):
        return card.determinize(view, rng), None

    def to_move(self, state) -> int | None:
        if state.step == FINISHED or not legal_options(state)[1]:
            return None
        return state.to_move

    def ranked(self, state, rng) -> list:
        codes, moves = legal_options(state)
        if len(moves) == 1:
            return list(moves)
        scores = card_greedy.greedy_scores(state, codes)
        order = sorted(range(len(moves)), key=lambda i: -scores[i])
        return [moves[i] for i in order]

    def policy(self, state, rng):
        return card.greedy_move(state, rng)

    def fork(self, state):
        return state  # immutable

    step = staticmethod(card.step)

    def rollout(self, state, chance, rng, seat: int) -> tuple[float, float]:
        for _ in range(ROLLOUT_TURNS * state.setup.players * 2):
            if self.to_move(state) is None:
                break
            state = card.step(state, card.greedy_move(state, rng))
        margin = margin_of(state, seat)
        return 1.0 / (1.0 + exp(-margin / MARGIN_SCALE)), margin

    def code(self, move) -> int:
        return parse(move).code


GAME = CardTree()
