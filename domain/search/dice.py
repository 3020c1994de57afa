"""keltis-dice for the search: the state a view shows (everything of a dice game is
public; what a seat cannot know is the future rolls, `domain.search.dice_tree` draws them)."""

from __future__ import annotations

from domain.dice.board import COLORS, load_board
from domain.dice.state import FACE_INDEX, DiceState


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
    state.turns = view["turns"]
    state.idle_run = view["idle_turns"]
    state.progressed = view["progressed"]
    return state


__all__ = ["state_of"]
