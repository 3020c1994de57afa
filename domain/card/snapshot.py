"""A keltis-card state as plain data and back (snapshots of a long game, so a cold read
need not fold its whole log). Bump FORMAT whenever CardState's fields change: a snapshot
of another format is ignored and the log is folded instead."""

from __future__ import annotations

from domain.card.state import Board, CardState, Setup
from domain.snapshot_data import as_tuples, data_to_slots, slots_to_data

FORMAT = 2
# The state's fields and its board's, side by side as before the board was its own object.
STATE_FIELDS = tuple(
    name for name in CardState.__slots__ if name not in ("_legal", "board", "setup")
)
FIELDS = STATE_FIELDS + Board.__slots__


def to_data(state: CardState) -> dict:
    """The state as plain data (JSON-encodable once tuples are lists)."""
    setup = state.setup
    data = slots_to_data(state, FIELDS)
    data["setup"] = {
        "players": setup.players,
        "options": setup.options,
        "deck": setup.deck,
        "removed": setup.removed,
    }
    return data


def from_data(data: dict) -> CardState:
    """The state `to_data` gave; KeyError or TypeError when `data` is not one."""
    setup = data["setup"]
    state = object.__new__(CardState)
    state.setup = Setup(
        setup["players"],
        dict(setup["options"]),
        as_tuples(setup["deck"]),
        as_tuples(setup["removed"]),
    )
    data_to_slots(state, data, STATE_FIELDS)
    state.board = object.__new__(Board)
    data_to_slots(state.board, data, Board.__slots__)
    state._legal = None
    return state
