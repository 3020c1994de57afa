"""The state of one keltis-dice game (a small immutable-by-convention value), its turn `Step`.

`DiceState` is never mutated after it is built: `evolve` makes a shallow copy (`replace`)
and swaps only the fields an event changes, so unchanged tuples are shared between states
(an event that changes nothing returns the state itself).
Everything in it is public (the game has no hidden information; future rolls are simply
never drawn before they happen). The seed is never part of the state.
"""

from __future__ import annotations

from enum import StrEnum

from domain.dice.board import COLORS, Board
from domain.game import Phase

FACES = (*COLORS, "stone")  # die faces; `chance.draws(..., 6)` indexes this tuple
FACE_INDEX = {face: i for i, face in enumerate(FACES)}
STONE = 5  # index of the wishing-stone face
COLOR_INDEX = {color: i for i, color in enumerate(COLORS)}
DICE = 5
MARKERS = 4  # W4: markers per player
SUPPLY = 40  # W4: wishing-stone tiles


class Step(StrEnum):
    """Where a turn stands: `DiceState.step` holds its value (the view's "stage")."""

    ROLL = "roll"  # dice rolled: keep or reroll (T1)
    MOVE = "move"  # dice final: move a colour or pass (T3)
    CLOVER = "clover"  # a clover bonus waits: clover move or pass (T6)
    FINISHED = "finished"  # the game has ended (F1)


# The steps as the state holds them: plain `str` values, not enum members, because the hot
# paths compare them on every step and CPython only specialises `==` for exact str / int.
ROLL, MOVE, CLOVER, FINISHED = (step.value for step in Step)
PHASE_OF_STEP = {
    ROLL: Phase.ACTIVE,
    MOVE: Phase.ACTIVE,
    CLOVER: Phase.ACTIVE,
    FINISHED: Phase.FINISHED,
}


class DiceState:
    """Positions[seat][path] is the field number of that marker (0 = not placed)."""

    __slots__ = (
        "board",
        "dice",
        "end",
        "idle_run",
        "players",
        "positions",
        "progressed",
        "rerolled",
        "rolls",
        "step",
        "supply",
        "tiles",
        "to_move",
        "turns",
    )

    board: Board
    dice: tuple[int, ...]  # face indexes into FACES; () before the first roll
    end: str | None  # why the game ended (F1), None while it runs
    players: int
    positions: tuple[tuple[int, ...], ...]
    rerolled: bool
    rolls: int  # rolls and rerolls so far: the next one uses label f"roll:{rolls}"
    step: str  # a Step value
    supply: int
    tiles: tuple[int, ...]
    to_move: int
    turns: int  # turns over (F6; a kobold's extra turn is a turn)
    idle_run: int  # turns in a row over in which no marker moved (F5)
    progressed: bool  # whether a marker moved in the turn in hand

    def replace(self, **changes) -> DiceState:
        """A copy with some fields changed; the original is left untouched."""
        new = self.copy()
        for name, value in changes.items():
            setattr(new, name, value)
        return new

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DiceState):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in DiceState.__slots__)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        fields = ", ".join(
            f"{name}={getattr(self, name)!r}" for name in DiceState.__slots__ if name != "board"
        )
        return f"DiceState(board={self.board.name!r}, {fields})"

    def copy(self) -> DiceState:
        """A shallow copy (all fields are immutable values, so they are shared)."""
        new = object.__new__(DiceState)
        new.board = self.board
        new.dice = self.dice
        new.end = self.end
        new.players = self.players
        new.positions = self.positions
        new.rerolled = self.rerolled
        new.rolls = self.rolls
        new.step = self.step
        new.supply = self.supply
        new.tiles = self.tiles
        new.to_move = self.to_move
        new.turns = self.turns
        new.idle_run = self.idle_run
        new.progressed = self.progressed
        return new


def initial_state(players: int, board: Board) -> DiceState:
    """The state right after `game_started`, before the first roll."""
    state = object.__new__(DiceState)
    state.board = board
    state.dice = ()
    state.end = None
    state.players = players
    state.positions = ((0,) * len(COLORS),) * players
    state.rerolled = False
    state.rolls = 0
    state.step = ROLL
    state.supply = SUPPLY
    state.tiles = (0,) * players
    state.to_move = 0
    state.turns = 0
    state.idle_run = 0
    state.progressed = False
    return state


def phase_of(state: DiceState) -> Phase:
    """The phase of the whole game: ACTIVE or FINISHED (the dice game has no final round)."""
    return PHASE_OF_STEP[state.step]


def to_move(state: DiceState) -> int | None:
    """The seat expected to act, or None when the game is over."""
    return None if state.step == FINISHED else state.to_move


def markers_placed(row: tuple[int, ...]) -> int:
    """How many of one player's markers are on the board."""
    return len(row) - row.count(0)


def goal_markers(state: DiceState) -> int:
    """Markers in goal zones (F1), counting all players."""
    goal = state.board.goal_from
    return sum(1 for row in state.positions for field in row if field >= goal)
