"""What a viewer sees of a keltis-dice game: everything (the game has no hidden state)."""

from __future__ import annotations

from domain.dice.board import COLORS
from domain.dice.decide import GOAL_THRESHOLD
from domain.dice.scoring import breakdown, outcome
from domain.dice.state import (
    CLOVER,
    FACES,
    FINISHED,
    MARKERS,
    PHASE_OF_STEP,
    DiceState,
    goal_markers,
    markers_placed,
)


def full_view(state: DiceState) -> dict:
    """JSON-ready state; identical for every viewer (all of it is public)."""
    over = state.step == FINISHED
    return {
        "game": "keltis-dice",
        "players": state.players,
        "board": state.board.to_json(),
        "phase": str(PHASE_OF_STEP[state.step]),
        "stage": state.step,
        "to_move": None if over else state.to_move,
        "dice": [FACES[f] for f in state.dice],
        "rerolled": state.rerolled,
        "rolls": state.rolls,
        "pending_clover": state.step == CLOVER,
        "supply": state.supply,
        "goal_markers": goal_markers(state),
        "goal_threshold": GOAL_THRESHOLD[state.players],
        "seats": [
            {
                "seat": seat,
                "markers": {
                    color: field
                    for color, field in zip(COLORS, state.positions[seat], strict=True)
                    if field
                },
                "markers_left": MARKERS - markers_placed(state.positions[seat]),
                "tiles": state.tiles[seat],
                "score": breakdown(state, seat)["total"],
            }
            for seat in range(state.players)
        ],
        "turns": state.turns,
        "idle_turns": state.idle_run,
        "progressed": state.progressed,
        "end": state.end,
        "result": outcome(state).to_dict() if over else None,
    }


def view(state: DiceState, viewer: int | None) -> dict:
    """The state as `viewer` sees it: the same for all (R2 has nothing to hide here)."""
    return full_view(state)
