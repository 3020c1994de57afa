"""Options and commands to events: `normalize_options`, `start` (W2, W4, T1) and `decide`
(every rule of a turn). The commands themselves are in `domain.dice.commands`.

Decisions this module makes (documented in docs/DESIGN.md):
- T2 is checked once, when the dice become final (after `keep`, or right after the reroll).
- A clover with no legal target is skipped without asking; otherwise the seat chooses.
- F1 is checked after every marker move; the game then ends at once, with no bonus.
- F5 and F6 are checked when a turn is over, in place of the next turn's roll.
- The next turn's roll (of the next seat, or the same seat after a kobold) is in the batch
  of the command that ends the turn.
"""

from __future__ import annotations

from collections.abc import Mapping

from domain.chance import Chance
from domain.dice.board import BOARD_NAMES, COLORS, load_board
from domain.dice.commands import (
    CLOVER_BASE,
    COMMANDS,
    MOVE_BASE,
    REROLL_BASE,
    REROLL_CHOICES,
    DiceCommand,
    move_target,
    parse,
)
from domain.dice.state import (
    CLOVER,
    DICE,
    FACES,
    FINISHED,
    MARKERS,
    MOVE,
    ROLL,
    STONE,
    DiceState,
    goal_markers,
    markers_placed,
)
from domain.endless import IDLE_TURNS, TURN_LIMIT, service_ending
from domain.errors import GameOver, IllegalMove, InvalidOptions, NotYourTurn

MIN_PLAYERS, MAX_PLAYERS = 2, 4
DEFAULT_OPTIONS = {"board": "basic"}
GOAL_THRESHOLD = {2: 5, 3: 7, 4: 8}  # F1


def _face_names(faces) -> list[str]:
    """The names of five dice faces (indexed by name: cheaper than `map` over five)."""
    a, b, c, d, e = faces
    return [FACES[a], FACES[b], FACES[c], FACES[d], FACES[e]]


def normalize_options(options: Mapping) -> dict:
    """Options with defaults filled in: `board` is "basic" (default) or "advanced"."""
    if not isinstance(options, Mapping):
        raise InvalidOptions("options must be an object", "W2")
    unknown = sorted(set(options) - set(DEFAULT_OPTIONS))
    if unknown:
        raise InvalidOptions(f"unknown option(s) {unknown}; known: ['board']", "W2")
    normalized = {**DEFAULT_OPTIONS, **options}
    if normalized["board"] not in BOARD_NAMES:
        raise InvalidOptions(f"board must be one of {list(BOARD_NAMES)}", "W2")
    return normalized


def start(players: int, options: Mapping, chance: Chance) -> list[dict]:
    """game_started, then the first player's roll (T1)."""
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidOptions("keltis-dice is for 2 to 4 players", "W4")
    options = normalize_options(options)
    load_board(options["board"])  # a malformed board file fails here, before any event
    return [
        {"type": "game_started", "players": players, "options": options},
        roll_event(0, 0, chance),
    ]


# The labels of a game's first rolls, formatted once: F6 ends a game within 400 turns of at
# most two rolls each, so later labels are formatted on the spot.
_ROLL_LABELS = tuple(f"roll:{k}" for k in range(1024))


def roll_event(k: int, seat: int, chance: Chance) -> dict:
    """The roll that begins a turn: roll `k` of the game (label `roll:<k>`)."""
    faces = chance.draws(_ROLL_LABELS[k] if k < 1024 else f"roll:{k}", DICE, 6)
    return {
        "type": "dice_rolled",
        "seat": seat,
        "roll": k,
        "dice": _face_names(faces),
    }


def decide(state: DiceState, seat: int, command: Mapping, chance: Chance) -> list[dict]:
    """The events a legal command produces; raises a DomainError naming the rule."""
    step = state.step
    if step == FINISHED:
        raise GameOver("the game is over", "F1")
    if seat != state.to_move:
        raise NotYourTurn(f"seat {state.to_move} is to move", "T1")
    if type(command) is DiceCommand:  # a shared command: its code picks the handler
        code = command.code
        handler = _HANDLERS_BY_CODE[step][code]
        if handler is not None:
            return handler(state, seat, code, chance)
        action = command["action"]
    elif isinstance(command, Mapping):
        action = command.get("action")
        handler = _ACTIONS.get((step, action)) if isinstance(action, str) else None
        if handler is not None:
            return handler(state, seat, parse(command).code, chance)
    else:
        raise IllegalMove("a command is an object with an action", "T1")
    raise IllegalMove(_step_hint(step, action), "T6" if step == CLOVER else "T1")


def _step_hint(step: str, action: object) -> str:
    allowed = {ROLL: "keep or reroll", MOVE: "move or pass", CLOVER: "clover or pass"}
    return f"action {action!r} is not allowed now: {allowed[step]}"


def _keep(state: DiceState, seat: int, code: int, chance: Chance) -> list[dict]:
    events = [{"type": "dice_kept", "seat": seat}]
    _stone_tile(state.dice, state.supply, seat, events)
    return events


def _reroll(state: DiceState, seat: int, code: int, chance: Chance) -> list[dict]:
    ordered = [*REROLL_CHOICES[code - REROLL_BASE]]
    k = state.rolls
    faces = chance.draws(_ROLL_LABELS[k] if k < 1024 else f"roll:{k}", len(ordered), 6)
    dice = [*state.dice]
    for index, face in zip(ordered, faces, strict=True):
        dice[index] = face
    events = [
        {
            "type": "dice_rerolled",
            "seat": seat,
            "roll": k,
            "indexes": ordered,
            "dice": _face_names(dice),
        }
    ]
    _stone_tile(dice, state.supply, seat, events)
    return events


def _stone_tile(dice, supply: int, seat: int, events: list) -> None:
    """T2: two or more stone faces on the final dice take one tile, if any is left."""
    if supply > 0 and dice.count(STONE) >= 2:
        events.append({"type": "tile_taken", "seat": seat, "cause": "stones"})


def _move(state: DiceState, seat: int, code: int, chance: Chance) -> list[dict]:
    path = code - MOVE_BASE
    steps = state.dice.count(path)
    if not steps:
        raise IllegalMove(f"{COLORS[path]} does not show on the dice", "T3")
    return _advance(state, seat, path, steps, "dice", chance)


def _clover(state: DiceState, seat: int, code: int, chance: Chance) -> list[dict]:
    path = code - CLOVER_BASE
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
    positions = state.positions
    row = positions[seat]
    board = state.board
    start = row[path]
    if not board.reach[row.count(0) > len(row) - MARKERS][path][start][steps]:
        refusal = move_target(state, seat, path, steps)[1]  # which rule the move breaks
        raise IllegalMove(_REFUSALS[refusal], refusal)
    target = start + steps if start + steps < 9 else 9
    events: list[dict] = [
        {
            "type": "marker_moved",
            "seat": seat,
            "color": COLORS[path],
            "from": start,
            "to": target,
            "by": by,
        }
    ]
    new_row = (*row[:path], target, *row[path + 1 :])
    if start < board.goal_from <= target:  # F1 can only trigger on entering a goal
        moved = state.copy()
        moved.positions = (*positions[:seat], new_row, *positions[seat + 1 :])
        ending = end_reason(moved, seat)
        if ending is not None:
            events.append(ended_event(ending, moved))
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
        events.append(_next_turn(state, seat, True, chance))
        return events
    events.append(_next_turn(state, (seat + 1) % state.players, True, chance))
    return events


def _next_turn(state: DiceState, seat: int, moved: bool, chance: Chance) -> dict:
    """The event after a turn is over: `seat`'s roll, or the end of the game when the turn
    was the 30th in a row without a marker move (F5) or the 400th (F6)."""
    turns = state.turns + 1
    idle_run = 0 if moved or state.progressed else state.idle_run + 1  # `counts_after_turn`
    if idle_run < IDLE_TURNS and turns < TURN_LIMIT:  # `service_ending` is None: play on
        return roll_event(state.rolls, seat, chance)
    return ended_event(service_ending(turns, idle_run), state)


def ended_event(reason: str, state: DiceState) -> dict:
    """`game_ended` for `reason` (F1, F5, F6), in `state` (after the last marker move)."""
    return {
        "type": "game_ended",
        "reason": reason,
        "ended_by": reason,
        "goal_markers": goal_markers(state),
    }


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


def _pass(state: DiceState, seat: int, code: int, chance: Chance) -> list[dict]:
    return [
        {"type": "passed", "seat": seat, "stage": state.step},
        _next_turn(state, (seat + 1) % state.players, False, chance),
    ]


_ACTIONS = {
    (ROLL, "keep"): _keep,
    (ROLL, "reroll"): _reroll,
    (MOVE, "move"): _move,
    (MOVE, "pass"): _pass,
    (CLOVER, "clover"): _clover,
    (CLOVER, "pass"): _pass,
}
# The handler of every shared command (by code) in each step of a turn, None where refused.
_HANDLERS_BY_CODE = {
    step: tuple(_ACTIONS.get((step, command["action"])) for command in COMMANDS)
    for step in (ROLL, MOVE, CLOVER)
}
