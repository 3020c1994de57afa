"""Move picks that drive a game to its end, for tests, proofs and benchmarks."""

from __future__ import annotations


def rotating_pick(moves: list[dict], count: int) -> dict:
    """A deterministic pick that varies over the game and always gets it to its end.

    Draw steps take the deck at least two times in three (pile draws too, for coverage),
    so the deck runs out (E2) even if the other picks never close a row.
    """
    if count % 3:
        for move in moves:
            if move.get("action") == "draw" and move.get("source") == "deck":
                return move
    return moves[count % len(moves)]
