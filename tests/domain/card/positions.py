"""Hand-built keltis-card positions for rule tests."""

from __future__ import annotations

from domain.card.cards import KIND_OF, ROWS
from domain.card.state import (
    CLOSED,
    DRAW,
    EMPTY,
    FINAL_ROUND,
    FINISHED,
    NEXT_STATUS,
    PLAY,
    Setup,
    initial_state,
)

__all__ = ["DRAW", "FINAL_ROUND", "FINISHED", "PLAY", "position"]


def _kinds(names) -> tuple:
    return tuple(KIND_OF[name] for name in names)


def _status(cards: tuple) -> int:
    status = EMPTY
    for kind in cards:
        if kind < 60:
            status = NEXT_STATUS[status][kind % 12]
            if status < 0:
                raise ValueError(f"not a legal row: {cards}")
    return status


def position(
    players: int = 2,
    hands: dict | None = None,
    rows: dict | None = None,
    piles: dict | None = None,
    deck: list | None = None,
    removed: list | None = None,
    stones_taken: dict | None = None,
    to_move: int = 0,
    step: str = PLAY,
    draws_owed: int = 0,
    banned: tuple = (),
    ender: int | None = None,
    final_left: int = 0,
    laid_in_final: int = 0,
):
    """A state from names: hands {seat: [cards]}, rows {seat: {row: [cards]}},
    piles {pile: [cards, top last]}, deck [top first], stones_taken {seat: [values]}."""
    deck_kinds = _kinds(deck if deck is not None else ["blue-0", "blue-1", "blue-2"])
    setup = Setup(players, {}, deck_kinds, _kinds(removed or []))
    hand_tuple = tuple(
        tuple(sorted(_kinds((hands or {}).get(seat, [])))) for seat in range(players)
    )
    state = initial_state(setup, hand_tuple)
    seat_rows = []
    seat_status = []
    closed = 0
    for seat in range(players):
        given = (rows or {}).get(seat, {})
        cards = tuple(_kinds(given.get(name, [])) for name in ROWS)
        status = tuple(_status(cards[c]) for c in range(5))
        closed += sum(1 for s in status if s >= CLOSED)
        seat_rows.append(cards)
        seat_status.append(status)
    board = state.board  # a new state's own board, changed in place here
    board.rows = tuple(seat_rows)
    board.row_status = tuple(seat_status)
    board.closed_rows = closed
    state.piles = tuple(_kinds((piles or {}).get(name, [])) for name in ROWS)
    held = []
    table = state.stones_table
    for seat in range(players):
        mask = 0
        for value in (stones_taken or {}).get(seat, []):
            mask |= 1 << value
            table &= ~(1 << value)
        held.append(mask)
    board.stones_held = tuple(held)
    board.stones_table = table
    state.to_move = to_move
    state.step = step
    state.draws_owed = draws_owed
    state.banned = sum(1 << ROWS.index(name) for name in banned)
    if step == FINAL_ROUND:
        board.ender = ender if ender is not None else (to_move - 1) % players
        board.end_reason = "deck_empty"
        board.final_left = final_left or players
        board.laid_in_final = laid_in_final
    return state
