"""Scoring of keltis-card (K1-K4)."""

from __future__ import annotations

from domain.card.cards import ALL_STONES_MASK, COLOURS, POINT_ROW, stones_of
from domain.game import Outcome

# K1: points of a colour row by its number of cards (9 or more: 10; never started: 0).
ROW_POINTS = (0, -4, -3, -2, 1, 2, 3, 6, 7, 10)
# K3: points of the wishing stones held by their number (5 or more: 10).
STONE_POINTS = (-4, -1, 0, 4, 6, 10)


def row_points(cards: int) -> int:
    """K1: the score of one colour row of `cards` cards."""
    return ROW_POINTS[min(cards, 9)]


def stone_points(stones: int) -> int:
    """K3: the score of holding `stones` wishing stones."""
    return STONE_POINTS[min(stones, 5)]


def seat_breakdown(rows: tuple, stones_mask: int) -> dict:
    """Every part of one seat's score (K1-K3) and its total."""
    colour_rows = {COLOURS[c]: row_points(len(rows[c])) for c in range(5)}
    point_row = len(rows[POINT_ROW])  # K2
    stones = stones_of(stones_mask)
    stone_score = stone_points(len(stones))
    total = sum(colour_rows.values()) + point_row + stone_score
    return {
        "rows": colour_rows,
        "point_row": point_row,
        "stones": stones,
        "stone_points": stone_score,
        "total": total,
    }


def seat_total(rows: tuple, stones_mask: int) -> int:
    """The total of `seat_breakdown`, without building its parts (every view shows it)."""
    colour_points = sum(ROW_POINTS[min(len(row), 9)] for row in rows[:POINT_ROW])
    stones = (stones_mask & ALL_STONES_MASK).bit_count()
    return colour_points + len(rows[POINT_ROW]) + STONE_POINTS[min(stones, 5)]


def outcome(state) -> Outcome:
    """Every seat's score, the winners (K4: all tied top seats win) and why the game ended
    (the final round's reason: E1, E2, E4, E5)."""
    return Outcome.of(
        [
            seat_breakdown(state.rows[seat], state.stones_held[seat])
            for seat in range(state.setup.players)
        ],
        state.end_reason,
    )
