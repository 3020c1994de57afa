"""A keltis-dice state as plain data and back (snapshots of a long game, so a cold read
need not fold its whole log). Bump FORMAT whenever DiceState's fields change: a snapshot
of another format is ignored and the log is folded instead."""

from __future__ import annotations

from domain.dice.board import load_board
from domain.dice.state import DiceState
from domain.snapshot_data import data_to_slots, slots_to_data

FORMAT = 2
FIELDS = tuple(name for name in DiceState.__slots__ if name != "board")


def to_data(state: DiceState) -> dict:
    """The state as plain data (its board by name)."""
    return {**slots_to_data(state, FIELDS), "board": state.board.name}


def from_data(data: dict) -> DiceState:
    """The state `to_data` gave; KeyError or TypeError when `data` is not one."""
    state = object.__new__(DiceState)
    state.board = load_board(data["board"])
    data_to_slots(state, data, FIELDS)
    return state
