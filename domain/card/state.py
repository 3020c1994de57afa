"""The immutable state of one keltis-card game, its turn `Step`, and the row-status
tables (P3, P4).

A `CardState` is never mutated once built: `evolve` copies it (`clone`) and replaces only
the fields that change; everything inside is a tuple, an int or a str, shared between states.

Row status (one small int per colour row, so that a lay is a table lookup):
    0            empty row
    1 + d*11 + v open row whose last value is v; d = 0 undecided, 1 ascending, 2 descending
    34 / 35      closed by one / by both end cards
"""

from __future__ import annotations

from enum import StrEnum
from operator import attrgetter

from domain.card.cards import END
from domain.game import Phase

EMPTY = 0
CLOSED = 34
CLOSED_TWICE = 35
STATUS_COUNT = 36
UNDECIDED, ASCENDING, DESCENDING = 0, 1, 2
DIRECTION_NAMES = (None, "ascending", "descending")


class Step(StrEnum):
    """Where a turn stands: `CardState.step` holds its value (the view's "step")."""

    PLAY = "play"  # the seat to move plays a card (P1-P4)
    DRAW = "draw"  # the same seat draws what it owes (D1)
    FINAL_ROUND = "final_round"  # lay up to two cards or stop (E3)
    FINISHED = "finished"  # the game is over (K4)


# The steps as the state holds them: plain `str` values, not enum members, because the hot
# paths compare them on every step and CPython only specialises `==` for exact str / int.
PLAY, DRAW, FINAL_ROUND, FINISHED = (step.value for step in Step)
PHASE_OF_STEP = {
    PLAY: Phase.ACTIVE,
    DRAW: Phase.ACTIVE,
    FINAL_ROUND: Phase.FINAL_ROUND,
    FINISHED: Phase.FINISHED,
}


def phase_of(state) -> Phase:
    """The phase of the whole game: ACTIVE, FINAL_ROUND or FINISHED."""
    return PHASE_OF_STEP[state.step]


def to_move(state) -> int | None:
    """The seat expected to act, or None when the game is over."""
    return state.to_move


def open_status(direction: int, value: int) -> int:
    """The status of an open row."""
    return 1 + direction * 11 + value


def _next_status(status: int, value: int) -> int:
    """The status after laying a colour card of `value` (11 = end), or -1 if illegal (P3)."""
    if value == END:
        return {CLOSED: CLOSED_TWICE, CLOSED_TWICE: -1}.get(status, CLOSED)
    if status == EMPTY:
        return open_status(UNDECIDED, value)
    if status >= CLOSED:
        return -1
    direction, last = divmod(status - 1, 11)
    if direction == UNDECIDED:
        if value == last:
            return status
        return open_status(ASCENDING if value > last else DESCENDING, value)
    if direction == ASCENDING:
        return open_status(ASCENDING, value) if value >= last else -1
    return open_status(DESCENDING, value) if value <= last else -1


# NEXT_STATUS[status][value or 11] -> status after the lay, -1 when the lay is illegal.
NEXT_STATUS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_next_status(s, v) for v in range(12)) for s in range(STATUS_COUNT)
)
# LAST_VALUE[status] -> the value a point card must have to go on that row (P4), else -1.
LAST_VALUE: tuple[int, ...] = tuple(
    (s - 1) % 11 if EMPTY < s < CLOSED else -1 for s in range(STATUS_COUNT)
)


def direction_of(status: int) -> str | None:
    """'ascending', 'descending' or None (undecided, empty or closed)."""
    if EMPTY < status < CLOSED:
        return DIRECTION_NAMES[(status - 1) // 11]
    return None


class Setup:
    """What never changes during a game: player count, draw order, removed cards."""

    __slots__ = ("deck", "options", "players", "removed")

    def __init__(self, players: int, options: dict, deck: tuple, removed: tuple):
        self.players = players
        self.options = options
        self.deck = deck  # kinds in draw order, top first
        self.removed = removed  # kinds removed face down (S1)


class Board:
    """What most events leave alone: the rows and their status, the stones, the final round.
    States share one until a lay, a wish or the final round needs a changed `copy`, so a
    discard or a draw (most of a game's events) copies one reference, not nine."""

    __slots__ = (
        "closed_rows",
        "end_reason",
        "ender",
        "final_left",
        "laid_in_final",
        "row_status",
        "rows",
        "stones_held",
        "stones_table",
    )

    def copy(self) -> Board:
        """A copy to change (its tuples are shared)."""
        new = _new(Board)
        new.rows = self.rows
        new.row_status = self.row_status
        new.closed_rows = self.closed_rows
        new.stones_table = self.stones_table
        new.stones_held = self.stones_held
        new.final_left = self.final_left
        new.laid_in_final = self.laid_in_final
        new.ender = self.ender
        new.end_reason = self.end_reason
        return new


def _on_board(name: str) -> property:
    return property(attrgetter(f"board.{name}"), doc=f"The board's `{name}` (read only).")


class CardState:
    """One moment of a game. Treat as immutable; `clone` before changing a field, and
    change the board through a `Board.copy`.

    `turns` counts the turns played out (a play and its draws), `idle_run` the idle turns
    in a row (E4), `progressed` whether the turn in hand has laid, wished or drawn from
    the draw pile so far. The board's fields read as the state's own (`state.rows`); the
    rules' hot paths read `state.board` itself."""

    __slots__ = (
        "_legal",
        "banned",
        "board",
        "deck_pos",
        "draws_owed",
        "hands",
        "idle_run",
        "piles",
        "progressed",
        "setup",
        "shown",
        "step",
        "to_move",
        "turns",
    )

    rows = _on_board("rows")
    row_status = _on_board("row_status")
    closed_rows = _on_board("closed_rows")
    stones_table = _on_board("stones_table")
    stones_held = _on_board("stones_held")
    final_left = _on_board("final_left")
    laid_in_final = _on_board("laid_in_final")
    ender = _on_board("ender")
    end_reason = _on_board("end_reason")

    def clone(self) -> CardState:
        """A shallow copy (the board and tuples are shared); the legal-move cache is not
        copied."""
        new = _new(CardState)
        new.setup = self.setup
        new.board = self.board
        new._legal = None
        new.deck_pos = self.deck_pos
        new.hands = self.hands
        new.shown = self.shown
        new.piles = self.piles
        new.to_move = self.to_move
        new.step = self.step
        new.draws_owed = self.draws_owed
        new.banned = self.banned
        new.turns = self.turns
        new.idle_run = self.idle_run
        new.progressed = self.progressed
        return new

    @property
    def deck_size(self) -> int:
        """Cards left in the draw pile."""
        return len(self.setup.deck) - self.deck_pos


_new = object.__new__


def new_board(players: int) -> Board:
    """The board right after the deal: empty rows, every stone on the table."""
    board = _new(Board)
    board.rows = tuple(((),) * 6 for _ in range(players))
    board.row_status = tuple((EMPTY,) * 5 for _ in range(players))
    board.closed_rows = 0
    board.stones_table = sum(1 << v for v in range(1, 10))
    board.stones_held = (0,) * players
    board.final_left = 0
    board.laid_in_final = 0
    board.ender = None
    board.end_reason = None
    return board


def initial_state(setup: Setup, hands: tuple) -> CardState:
    """The state right after the deal: seat 0 to play (S2)."""
    players = setup.players
    state = _new(CardState)
    state.setup = setup
    state.board = new_board(players)
    state.deck_pos = 0
    state.hands = hands
    state.shown = ((),) * players
    state.piles = ((),) * 6
    state.to_move = 0
    state.step = PLAY
    state.draws_owed = 0
    state.banned = 0
    state.turns = 0
    state.idle_run = 0
    state.progressed = False
    state._legal = None
    return state
