"""Scoring of keltis-dice (F2-F4)."""

from __future__ import annotations

from domain.dice.board import COLORS
from domain.dice.state import DiceState
from domain.game import Outcome

TILE_POINTS = (-10, -4, -3, -2, 1, 2, 3, 6, 7, 10)  # F3: index = tiles held, 9 or more: 10


def tile_points(tiles: int) -> int:
    """F3: points for the wishing-stone tiles a player holds."""
    return TILE_POINTS[min(tiles, len(TILE_POINTS) - 1)]


def marker_points(state: DiceState, seat: int) -> dict[str, int]:
    """F2: each placed marker scores its field's value; paths without one score 0."""
    values = state.board.values
    return {
        color: values[p][field]
        for p, (color, field) in enumerate(zip(COLORS, state.positions[seat], strict=True))
    }


def breakdown(state: DiceState, seat: int) -> dict:
    """One seat's score, item by item."""
    paths = marker_points(state, seat)
    tiles = state.tiles[seat]
    total = sum(paths.values()) + tile_points(tiles)
    return {
        "seat": seat,
        "paths": paths,
        "tiles": tiles,
        "tile_points": tile_points(tiles),
        "total": total,
    }


def outcome(state: DiceState) -> Outcome:
    """Every seat's score, the winners (F4: all tied at the top win) and why the game ended
    (F1, F5, F6)."""
    return Outcome.of([breakdown(state, seat) for seat in range(state.players)], state.end)
