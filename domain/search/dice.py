"""keltis-dice for the search: the state of a view, candidate moves, rollouts and their
evaluation.

Everything of a dice game is public; what the seat cannot know is the future rolls, so a
determinization is the position of the view plus a fresh table of future dice drawn from
the bot's rng (uniform, like the game's own). Moves and rollouts run on the fast playout of
`domain.search.dice_playout`.
"""

from __future__ import annotations

import random
from math import exp

from domain.dice.board import COLORS, load_board
from domain.dice.bots import greedy_bot
from domain.dice.commands import KEEP, REROLL_CHOICES, REROLLS, parse
from domain.dice.state import FACE_INDEX, FINISHED, DiceState
from domain.search.dice_playout import DiceTable, Sim

ROLLOUT_TURNS = 2  # each seat's turns played out before the evaluation
MARGIN_SCALE = 5.0  # points of lead worth about 0.73 of a win
_REROLL_OF = {indexes: move for indexes, move in zip(REROLL_CHOICES, REROLLS, strict=True)}


def state_of(view: dict) -> DiceState:
    """The state a view shows (a dice game hides nothing)."""
    state = object.__new__(DiceState)
    state.board = load_board(view["board"]["name"])
    state.dice = tuple(FACE_INDEX[face] for face in view["dice"])
    state.end = view["end"]
    state.players = view["players"]
    state.positions = tuple(
        tuple(seat["markers"].get(color, 0) for color in COLORS) for seat in view["seats"]
    )
    state.rerolled = view["rerolled"]
    state.rolls = view["rolls"]
    state.step = view["stage"]
    state.supply = view["supply"]
    state.tiles = tuple(seat["tiles"] for seat in view["seats"])
    state.to_move = view["to_move"] if view["to_move"] is not None else 0
    return state


def step(sim: Sim, move, table: DiceTable | None = None) -> Sim:
    """The position after the seat to move plays `move` (a copy: `sim` is left as it was),
    rolling from `table` (from the table `sim` reads, if None)."""
    after = sim.copy()
    if table is not None:
        after.table = table
    after.play(move)
    return after


def rewards(sim: Sim) -> list[float]:
    """Each seat's reward in [0, 1]: its lead over the best other seat, squashed."""
    scores = [sim.score(seat) for seat in range(sim.players)]
    result = []
    for seat in range(sim.players):
        margin = scores[seat] - max(s for i, s in enumerate(scores) if i != seat)
        result.append(1.0 / (1.0 + exp(-margin / MARGIN_SCALE)))
    return result


class DiceGame:
    """The `domain.search.sampling.Game` of keltis-dice."""

    def determinize(self, view: dict, rng):
        """The view's position, reading future dice from a fresh table of `rng`'s draws."""
        table = DiceTable(random.Random(rng.getrandbits(64)))
        return Sim.of(state_of(view), table), table

    def candidates(self, view: dict, legal_moves: list) -> list:
        """Every move and pass; of the 32 roll choices: keep, the greedy bot's, and for each
        colour a reroll of the dice not showing it (keeping the stones or not)."""
        if view["stage"] != "roll":
            return legal_moves
        found = [greedy_bot(view, legal_moves, None), KEEP]
        dice = view["dice"]
        for color in COLORS:
            for keep_stones in (True, False):
                indexes = tuple(
                    i
                    for i, face in enumerate(dice)
                    if face != color and not (keep_stones and face == "stone")
                )
                if indexes:
                    found.append(_REROLL_OF[indexes])
        unique = list({parse(move).code: move for move in found}.values())
        legal = {parse(move).code: move for move in legal_moves}
        return [legal[parse(move).code] for move in unique if parse(move).code in legal]

    step = staticmethod(step)

    def rollout(self, sim: Sim, chance, rng) -> list[float]:
        """The greedy bot for every seat, ROLLOUT_TURNS turns each, then `rewards`."""
        last = sim.turn + ROLLOUT_TURNS * sim.players
        while sim.stage != FINISHED and sim.turn <= last:
            sim.play(sim.greedy_move())
        return rewards(sim)


GAME = DiceGame()
