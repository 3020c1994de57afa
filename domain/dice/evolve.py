"""keltis-dice events and the pure fold over them (one small function per event type).

All events are public (no `"hidden"` field). Colours and die faces are names.

- `game_started {players, options}`: always first.
- `dice_rolled {seat, roll, dice}`: a turn begins; `roll` is k of label `roll:<k>`,
  `dice` the five faces `chance.draws(f"roll:{k}", 5, 6)` mapped through FACES.
- `dice_rerolled {seat, roll, indexes, dice}`: T1; `indexes` sorted; `dice` all five faces
  after the reroll; the new faces at `indexes` (in that order) are
  `chance.draws(f"roll:{k}", len(indexes), 6)`. The dice are final afterwards.
- `dice_kept {seat}`: T1; the dice are final.
- `tile_taken {seat, cause}`: one tile from the supply; cause `"stones"` (T2) or
  `"stone_field"` (T6). Never emitted when the supply is empty.
- `marker_moved {seat, color, from, to, by}`: `from` 0 = a new marker enters (T3);
  `by` is `"dice"` or `"clover"`.
- `clover_gained {seat}`: T6; the same seat must now send `clover` or `pass`.
- `kobold_gained {seat}`: T6; the next `dice_rolled` is for the same seat.
- `passed {seat, stage}`: the seat gave up its move (`stage` is the step: "move") or its
  clover ("clover").
- `game_ended {reason, ended_by, goal_markers}`: F1; reason `"goal_markers"` or
  `"all_markers_in_goal"`; F5, F6: `"idle_turns"` or `"turn_limit"` (E6); `ended_by` repeats
  `reason` (older logs have no `ended_by`).

Each `dice_rolled` after the first, and `game_ended`, end the turn in hand: `turns` and the
run of turns without a marker move (`idle_run`) count it (F5, F6).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from domain.dice.board import load_board
from domain.dice.state import (
    CLOVER,
    COLOR_INDEX,
    DICE,
    FACE_INDEX,
    FINISHED,
    MOVE,
    ROLL,
    DiceState,
    initial_state,
)
from domain.endless import counts_after_turn
from domain.errors import DomainError
from domain.game import evolve_all


class UnknownEvent(DomainError):
    """An event this game does not know, or a log that does not start with game_started."""

    code = "unknown_event"


_FACE_OF = FACE_INDEX.__getitem__


def _faces(names: list[str]) -> tuple[int, ...]:
    """The face indexes of an event's dice (five taken by name: cheaper than `map`)."""
    if len(names) != DICE:
        return tuple(map(_FACE_OF, names))
    a, b, c, d, e = names
    return (FACE_INDEX[a], FACE_INDEX[b], FACE_INDEX[c], FACE_INDEX[d], FACE_INDEX[e])


def _rolled(state: DiceState, event: Mapping) -> DiceState:
    new = state.copy()
    if state.dice:  # a turn was in hand: it is over (F5, F6); `_turn_over` inlined
        new.turns, new.idle_run = counts_after_turn(state.turns, state.idle_run, state.progressed)
        new.progressed = False
    new.to_move = event["seat"]
    new.step = ROLL
    new.dice = _faces(event["dice"])
    new.rerolled = False
    new.rolls = event["roll"] + 1
    return new


def _turn_over(state: DiceState, new: DiceState) -> None:
    new.turns, new.idle_run = counts_after_turn(state.turns, state.idle_run, state.progressed)
    new.progressed = False


def _rerolled(state: DiceState, event: Mapping) -> DiceState:
    new = state.copy()
    new.step = MOVE
    new.dice = _faces(event["dice"])
    new.rerolled = True
    new.rolls = event["roll"] + 1
    return new


def _kept(state: DiceState, event: Mapping) -> DiceState:
    new = state.copy()
    new.step = MOVE
    return new


def _tile_taken(state: DiceState, event: Mapping) -> DiceState:
    seat = event["seat"]
    tiles = state.tiles
    new = state.copy()
    new.tiles = (*tiles[:seat], tiles[seat] + 1, *tiles[seat + 1 :])
    new.supply = state.supply - 1
    return new


def _marker_moved(state: DiceState, event: Mapping) -> DiceState:
    seat = event["seat"]
    path = COLOR_INDEX[event["color"]]
    positions = state.positions
    row = positions[seat]
    new = state.copy()
    new.positions = (
        *positions[:seat],
        (*row[:path], event["to"], *row[path + 1 :]),
        *positions[seat + 1 :],
    )
    new.step = MOVE
    new.progressed = True
    return new


def _clover_gained(state: DiceState, event: Mapping) -> DiceState:
    new = state.copy()
    new.step = CLOVER
    return new


def _unchanged(state: DiceState, event: Mapping) -> DiceState:
    return state  # states are never mutated, so an event that changes nothing shares it


def _ended(state: DiceState, event: Mapping) -> DiceState:
    new = state.copy()
    _turn_over(state, new)
    new.step = FINISHED
    new.end = event["reason"]
    return new


_HANDLERS = {
    "dice_rolled": _rolled,
    "dice_rerolled": _rerolled,
    "dice_kept": _kept,
    "tile_taken": _tile_taken,
    "marker_moved": _marker_moved,
    "clover_gained": _clover_gained,
    "kobold_gained": _unchanged,
    "passed": _unchanged,
    "game_ended": _ended,
}


def evolve(state: DiceState | None, event: Mapping) -> DiceState:
    """The state after one more event; `state` is None before `game_started`."""
    kind = event.get("type")
    if state is None:
        if kind != "game_started":
            raise UnknownEvent(f"a keltis-dice log starts with game_started, not {kind!r}")
        return initial_state(event["players"], load_board(event["options"]["board"]))
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise UnknownEvent(f"keltis-dice has no event {kind!r}")
    return handler(state, event)


def fold(events: Iterable[Mapping]) -> DiceState:
    """The state after the opening events and all that follow them."""
    state = evolve_all(evolve, None, events)
    if state is None:
        raise UnknownEvent("an empty log has no keltis-dice state")
    return state
