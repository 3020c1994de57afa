"""keltis-dice for the search: the state of a view, candidate moves, rollouts and their
evaluation.

Everything of a dice game is public; what the seat cannot know is the future rolls, so a
determinization is the state of the view plus a fresh chance source drawn from the bot's
rng (its rolls are uniform, like the game's own).
"""

from __future__ import annotations

from math import exp

from domain.chance import Chance
from domain.dice.board import COLORS, load_board
from domain.dice.bots import greedy_bot
from domain.dice.commands import KEEP, REROLL_CHOICES, REROLLS, legal_moves, parse
from domain.dice.decide import GOAL_THRESHOLD, decide
from domain.dice.evolve import evolve
from domain.dice.scoring import breakdown
from domain.dice.state import FACE_INDEX, FINISHED, MARKERS, STONE, DiceState, goal_markers

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


def light_view(state: DiceState) -> dict:
    """The fields of a view the greedy bot reads, without rendering the board."""
    return {
        "board": {"name": state.board.name},
        "stage": state.step,
        "to_move": state.to_move,
        "dice": [COLORS[f] if f < STONE else "stone" for f in state.dice],
        "supply": state.supply,
        "goal_markers": goal_markers(state),
        "goal_threshold": GOAL_THRESHOLD[state.players],
        "seats": [
            {
                "seat": seat,
                "markers": {c: f for c, f in zip(COLORS, row, strict=True) if f},
                "markers_left": MARKERS - (len(row) - row.count(0)),
                "tiles": state.tiles[seat],
                "score": breakdown(state, seat)["total"],
            }
            for seat, row in enumerate(state.positions)
        ],
    }


def step(state: DiceState, move, chance) -> DiceState:
    """The state after the seat to move plays `move`."""
    for event in decide(state, state.to_move, move, chance):
        state = evolve(state, event)
    return state


def rewards(state: DiceState) -> list[float]:
    """Each seat's reward in [0, 1]: its lead over the best other seat, squashed."""
    scores = [breakdown(state, seat)["total"] for seat in range(state.players)]
    result = []
    for seat in range(state.players):
        margin = scores[seat] - max(s for i, s in enumerate(scores) if i != seat)
        result.append(1.0 / (1.0 + exp(-margin / MARGIN_SCALE)))
    return result


class DiceGame:
    """The `domain.search.sampling.Game` of keltis-dice."""

    def determinize(self, view: dict, rng):
        return state_of(view), Chance(rng.getrandbits(256).to_bytes(32, "big"))

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

    def rollout(self, state, chance, rng) -> list[float]:
        turns = ROLLOUT_TURNS * state.players
        started = None
        while state.step != FINISHED:
            if state.to_move != started and state.step == "roll":
                turns -= 1
                started = state.to_move
                if turns < 0:
                    break
            moves = legal_moves(state, state.to_move)
            state = step(state, greedy_bot(light_view(state), moves, rng), chance)
        return rewards(state)


GAME = DiceGame()
