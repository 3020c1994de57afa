"""Commands of keltis-dice: what a seat may do now, and the events a legal command causes.

Commands (exactly what `legal_moves` lists and `decide` accepts):
- stage "roll":   `{"action": "keep"}`, `{"action": "reroll", "dice": [i, ...]}` (T1: once a
  turn, distinct indexes 0-4 in any order, at least one; the reroll makes the dice final).
- stage "move":   `{"action": "move", "color": c}` (T3-T5) or `{"action": "pass"}`.
- stage "clover": `{"action": "clover", "color": c}` (advance that marker one field, or
  place a new one on field 1) or `{"action": "pass"}` (a clover may be declined).

Decisions this module makes (documented in docs/DESIGN.md):
- T2 is checked once, when the dice become final (after `keep`, or right after the reroll).
- A clover with no legal target is skipped without asking; otherwise the seat chooses.
- F1 is checked after every marker move; the game then ends at once, with no bonus.
- The next turn's roll (of the next seat, or the same seat after a kobold) is in the batch
  of the command that ends the turn.
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.chance import Chance
from domain.dice.board import COLORS
from domain.dice.commands import CLOVERS, MOVES, PASS, REROLL_CHOICES, REROLLS, ROLL_STAGE
from domain.dice.state import (
    CLOVER,
    COLOR_INDEX,
    DICE,
    FACES,
    MARKERS,
    MOVING,
    OVER,
    ROLLED,
    STONE,
    DiceState,
    goal_markers,
    markers_placed,
)
from domain.errors import GameOver, IllegalMove, NotYourTurn

GOAL_THRESHOLD = {2: 5, 3: 7, 4: 8}  # F1
_FACE_NAME = FACES.__getitem__


def roll_event(k: int, seat: int, chance: Chance) -> dict:
    """The roll that begins a turn: roll `k` of the game (label `roll:<k>`)."""
    faces = chance.draws(f"roll:{k}", DICE, 6)
    return {
        "type": "dice_rolled",
        "seat": seat,
        "roll": k,
        "dice": [*map(_FACE_NAME, faces)],
    }


_REROLL_SET = frozenset(REROLL_CHOICES)
# The shared read-only reroll commands `legal_moves` hands out are valid by construction:
# id -> (command, its sorted indexes), so `_reroll` can skip re-validating them.
_SHARED_REROLLS = {id(command): (command, tuple(command["dice"])) for command in REROLLS}

# ---------------------------------------------------------------- legality


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

    The commands are shared read-only dicts (`domain.dice.commands.Command`)."""
    stage = state.stage
    if stage == OVER or seat != state.to_move:
        return []
    if stage == ROLLED:
        return [*ROLL_STAGE]
    # The checks of `move_target`, inlined: this runs on every step of every game.
    row = state.positions[seat]
    may_enter = row.count(0) > len(row) - MARKERS
    forbidden = state.board.forbidden
    moves = []
    dice = state.dice if stage == MOVING else None
    for path in range(5):
        steps = 1 if dice is None else dice.count(path)
        field = row[path]
        if not steps or field == 9 or (field == 0 and not may_enter):
            continue
        target = field + steps
        if not forbidden[path][target if target < 9 else 9]:
            moves.append(CLOVERS[path] if dice is None else MOVES[path])
    moves.append(PASS)
    return moves


# ---------------------------------------------------------------- decide


def decide(state: DiceState, seat: int, command: Mapping, chance: Chance) -> list[dict]:
    """The events a legal command produces; raises a DomainError naming the rule."""
    if state.stage == OVER:
        raise GameOver("the game is over", "F1")
    if seat != state.to_move:
        raise NotYourTurn(f"seat {state.to_move} is to move", "T1")
    if not isinstance(command, dict) and not isinstance(command, Mapping):
        raise IllegalMove("a command is an object with an action", "T1")
    action = command.get("action")
    handler = _ACTIONS.get((state.stage, action)) if isinstance(action, str) else None
    if handler is None:
        raise IllegalMove(_stage_hint(state.stage, action), "T6" if state.stage == CLOVER else "T1")
    return handler(state, seat, command, chance)


def _stage_hint(stage: str, action: object) -> str:
    allowed = {ROLLED: "keep or reroll", MOVING: "move or pass", CLOVER: "clover or pass"}
    return f"action {action!r} is not allowed now: {allowed[stage]}"


def _only_keys(command: Mapping, keys: int, rule: str) -> None:
    if len(command) != keys:
        raise IllegalMove(f"unexpected fields in {dict(command)!r}", rule)


def _keep(state: DiceState, seat: int, command: Mapping, chance: Chance) -> list[dict]:
    _only_keys(command, 1, "T1")
    events = [{"type": "dice_kept", "seat": seat}]
    _stone_tile(state.dice, state.supply, seat, events)
    return events


def _reroll(state: DiceState, seat: int, command: Mapping, chance: Chance) -> list[dict]:
    shared = _SHARED_REROLLS.get(id(command))
    if shared is not None and shared[0] is command:
        ordered = [*shared[1]]
    else:
        ordered = _reroll_indexes(command)
    k = state.rolls
    faces = chance.draws(f"roll:{k}", len(ordered), 6)
    dice = list(state.dice)
    for index, face in zip(ordered, faces, strict=True):
        dice[index] = face
    events = [
        {
            "type": "dice_rerolled",
            "seat": seat,
            "roll": k,
            "indexes": ordered,
            "dice": [*map(_FACE_NAME, dice)],
        }
    ]
    _stone_tile(dice, state.supply, seat, events)
    return events


def _reroll_indexes(command: Mapping) -> list[int]:
    """The sorted dice indexes of a client's reroll command; raises IllegalMove (T1)."""
    _only_keys(command, 2, "T1")
    indexes = command.get("dice")
    try:
        ordered = sorted(indexes) if isinstance(indexes, list) else ()
        valid = (
            tuple(ordered) in _REROLL_SET  # distinct indexes 0-4, at least one
            and [*map(type, ordered)].count(int) == len(ordered)  # no bools or floats
        )
    except TypeError:  # unorderable or unhashable entries
        valid = False
    if not valid:
        raise IllegalMove("reroll needs a non-empty list of distinct dice indexes 0-4", "T1")
    return ordered


def _stone_tile(dice, supply: int, seat: int, events: list) -> None:
    """T2: two or more stone faces on the final dice take one tile, if any is left."""
    if supply > 0 and dice.count(STONE) >= 2:
        events.append({"type": "tile_taken", "seat": seat, "cause": "stones"})


# The shared read-only move and clover commands of `legal_moves`: id -> (command, path).
_SHARED_COLORS = {id(command): (command, path) for path, command in enumerate(MOVES)} | {
    id(command): (command, path) for path, command in enumerate(CLOVERS)
}


def _color(command: Mapping, rule: str) -> int:
    shared = _SHARED_COLORS.get(id(command))
    if shared is not None and shared[0] is command:
        return shared[1]
    _only_keys(command, 2, rule)
    color = command.get("color")
    path = COLOR_INDEX.get(color) if isinstance(color, str) else None
    if path is None:
        raise IllegalMove(f"unknown colour {command.get('color')!r}", rule)
    return path


def _move(state: DiceState, seat: int, command: Mapping, chance: Chance) -> list[dict]:
    path = _color(command, "T3")
    steps = state.dice.count(path)
    if not steps:
        raise IllegalMove(f"{COLORS[path]} does not show on the dice", "T3")
    return _advance(state, seat, path, steps, "dice", chance)


def _clover(state: DiceState, seat: int, command: Mapping, chance: Chance) -> list[dict]:
    path = _color(command, "T6")
    return _advance(state, seat, path, 1, "clover", chance)


_REFUSALS = {
    "T4": "that marker is on field 9 and never moves again",
    "T5": "the move would end on a forbidden field",
    "W4": "all four markers are already on the board",
}


def _advance(
    state: DiceState, seat: int, path: int, steps: int, by: str, chance: Chance
) -> list[dict]:
    """A marker move (dice or clover), then F1, then the bonus of its field (T6)."""
    target, refusal = move_target(state, seat, path, steps)
    if refusal is not None:
        raise IllegalMove(_REFUSALS[refusal], refusal)
    positions = state.positions
    row = positions[seat]
    events: list[dict] = [
        {
            "type": "marker_moved",
            "seat": seat,
            "color": COLORS[path],
            "from": row[path],
            "to": target,
            "by": by,
        }
    ]
    board = state.board
    new_row = (*row[:path], target, *row[path + 1 :])
    if row[path] < board.goal_from <= target:  # F1 can only trigger on entering a goal
        moved = state.copy()
        moved.positions = (*positions[:seat], new_row, *positions[seat + 1 :])
        ending = end_reason(moved, seat)
        if ending is not None:
            events.append(
                {"type": "game_ended", "reason": ending, "goal_markers": goal_markers(moved)}
            )
            return events
    bonus = board.bonus[path][target]
    if bonus == "stone":
        if state.supply > 0:
            events.append({"type": "tile_taken", "seat": seat, "cause": "stone_field"})
    elif bonus == "clover":
        if _has_clover_target(new_row, board.forbidden):
            events.append({"type": "clover_gained", "seat": seat})
            return events
    elif bonus == "kobold":
        events.append({"type": "kobold_gained", "seat": seat})
        events.append(roll_event(state.rolls, seat, chance))
        return events
    events.append(roll_event(state.rolls, (seat + 1) % state.players, chance))
    return events


def _has_clover_target(row: tuple[int, ...], forbidden: tuple[tuple[bool, ...], ...]) -> bool:
    """Whether any marker of `row` may make a one-field clover move (`move_target` inlined)."""
    may_enter = markers_placed(row) < MARKERS
    for path, field in enumerate(row):
        if field != 9 and (field or may_enter) and not forbidden[path][field + 1]:
            return True
    return False


def end_reason(state: DiceState, mover: int) -> str | None:
    """F1: why the game ends after `mover`'s marker move, or None."""
    goal = state.board.goal_from
    if goal_markers(state) >= GOAL_THRESHOLD[state.players]:
        return "goal_markers"
    if sum(1 for field in state.positions[mover] if field >= goal) == MARKERS:
        return "all_markers_in_goal"
    return None


def _pass(state: DiceState, seat: int, command: Mapping, chance: Chance) -> list[dict]:
    _only_keys(command, 1, "T3")
    return [
        {"type": "passed", "seat": seat, "stage": state.stage},
        roll_event(state.rolls, (seat + 1) % state.players, chance),
    ]


_ACTIONS = {
    (ROLLED, "keep"): _keep,
    (ROLLED, "reroll"): _reroll,
    (MOVING, "move"): _move,
    (MOVING, "pass"): _pass,
    (CLOVER, "clover"): _clover,
    (CLOVER, "pass"): _pass,
}
