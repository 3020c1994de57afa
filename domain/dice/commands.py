"""Commands of keltis-dice: the `DiceCommand` type, parsing, and the legal-move generator.

Every command is a prebuilt, read-only `DiceCommand` (`domain.command.Command`: a
JSON-ready dict) carrying an int `code`; `legal_moves` hands out these shared objects (up
to 32 per call, never rebuilt), `parse` turns any other dict into the shared command it
equals, and `decide` works on the code alone. Copy one with `dict(command)` to change it.

Codes: keep = 0; reroll = 1 + index into REROLL_CHOICES (1-31); move = 32 + path;
clover = 37 + path; pass = 42.

Command shapes, by step (colours are `brown`..`blue`):
- step "roll":   `{"action": "keep"}`, `{"action": "reroll", "dice": [i, ...]}` (T1: once a
  turn, distinct indexes 0-4 in any order, at least one; the reroll makes the dice final).
- step "move":   `{"action": "move", "color": c}` (T3-T5) or `{"action": "pass"}`.
- step "clover": `{"action": "clover", "color": c}` (advance that marker one field, or
  place a new one on field 1) or `{"action": "pass"}` (a clover may be declined).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations

from domain.command import Command
from domain.dice.board import COLORS
from domain.dice.state import (
    COLOR_INDEX,
    DICE,
    FINISHED,
    MARKERS,
    MOVE,
    ROLL,
    DiceState,
    markers_placed,
)
from domain.errors import IllegalMove


class DiceCommand(Command):
    """A keltis-dice command, shared by every state; `code` identifies it."""

    __slots__ = ()


REROLL_CHOICES = tuple(  # every non-empty set of dice indexes, sorted (T1)
    indexes for size in range(1, DICE + 1) for indexes in combinations(range(DICE), size)
)
REROLL_BASE = 1
MOVE_BASE = REROLL_BASE + len(REROLL_CHOICES)
CLOVER_BASE = MOVE_BASE + len(COLORS)
PASS_CODE = CLOVER_BASE + len(COLORS)

KEEP = DiceCommand(0, action="keep")
REROLLS = tuple(
    DiceCommand(REROLL_BASE + i, action="reroll", dice=list(ix))
    for i, ix in enumerate(REROLL_CHOICES)
)
MOVES = tuple(DiceCommand(MOVE_BASE + p, action="move", color=c) for p, c in enumerate(COLORS))
CLOVERS = tuple(
    DiceCommand(CLOVER_BASE + p, action="clover", color=c) for p, c in enumerate(COLORS)
)
PASS = DiceCommand(PASS_CODE, action="pass")
COMMANDS: tuple[DiceCommand, ...] = (KEEP, *REROLLS, *MOVES, *CLOVERS, PASS)  # by code
ROLL_STEP = (KEEP, *REROLLS)
_REROLL_CODE = {indexes: REROLL_BASE + i for i, indexes in enumerate(REROLL_CHOICES)}

# ---------------------------------------------------------------- legal moves


def move_target(state: DiceState, seat: int, path: int, steps: int) -> tuple[int, str | None]:
    """(field, None) where a move of `steps` fields on `path` ends, or (0, rule) if illegal."""
    row = state.positions[seat]
    field = row[path]
    if field == 9:
        return 0, "T4"
    if field == 0 and markers_placed(row) >= MARKERS:
        return 0, "W4"
    target = field + steps
    if target > 9:
        target = 9
    if state.board.forbidden[path][target]:
        return 0, "T5"
    return target, None


def legal_moves(state: DiceState, seat: int) -> list[dict]:
    """Every command `decide` accepts from `seat` now (empty when not its turn).

    The commands are shared read-only dicts; the list is the caller's own."""
    step = state.step
    if step == FINISHED or seat != state.to_move:
        return []
    if step == ROLL:
        return [*ROLL_STEP]
    # The checks of `move_target`, read from the board's table: this runs on every step.
    row = state.positions[seat]
    reach = state.board.reach[row.count(0) > len(row) - MARKERS]
    moves = []
    if step == MOVE:
        count = state.dice.count
        for path in range(5):
            if reach[path][row[path]][count(path)]:
                moves.append(MOVES[path])
    else:
        for path in range(5):
            if reach[path][row[path]][1]:
                moves.append(CLOVERS[path])
    moves.append(PASS)
    return moves


# ---------------------------------------------------------------- parsing


def parse(command: Mapping) -> DiceCommand:
    """The shared command a client's dict equals; raises IllegalMove naming the rule.

    `decide` has already checked that the action is one the current step allows."""
    action = command.get("action")
    if action == "keep":
        _only_keys(command, 1, "T1")
        return KEEP
    if action == "pass":
        _only_keys(command, 1, "T3")
        return PASS
    if action == "reroll":
        return COMMANDS[_REROLL_CODE[tuple(_reroll_indexes(command))]]
    if action == "move":
        return MOVES[_path(command, "T3")]
    if action == "clover":
        return CLOVERS[_path(command, "T6")]
    raise IllegalMove(f"unknown action {action!r}", "T1")


def _only_keys(command: Mapping, keys: int, rule: str) -> None:
    if len(command) != keys:
        raise IllegalMove(f"unexpected fields in {dict(command)!r}", rule)


def _reroll_indexes(command: Mapping) -> list[int]:
    """The sorted dice indexes of a client's reroll command; raises IllegalMove (T1)."""
    _only_keys(command, 2, "T1")
    indexes = command.get("dice")
    try:
        ordered = sorted(indexes) if isinstance(indexes, list) else ()
        valid = (
            tuple(ordered) in _REROLL_CODE  # distinct indexes 0-4, at least one
            and [*map(type, ordered)].count(int) == len(ordered)  # no bools or floats
        )
    except TypeError:  # unorderable or unhashable entries
        valid = False
    if not valid:
        raise IllegalMove("reroll needs a non-empty list of distinct dice indexes 0-4", "T1")
    return ordered


def _path(command: Mapping, rule: str) -> int:
    _only_keys(command, 2, rule)
    color = command.get("color")
    path = COLOR_INDEX.get(color) if isinstance(color, str) else None
    if path is None:
        raise IllegalMove(f"unknown colour {command.get('color')!r}", rule)
    return path


__all__ = [
    "COMMANDS",
    "REROLL_CHOICES",
    "DiceCommand",
    "legal_moves",
    "move_target",
    "parse",
]
