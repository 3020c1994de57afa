"""Move picks that drive a game to its end, or make it last, for tests, proofs and
benchmarks."""

from __future__ import annotations

import random


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


def lasting_pick(moves: list[dict], rng: random.Random) -> dict:
    """A move that makes a card game last: a draw from a discard pile rather than the deck
    when there is one, else any."""
    piles = [m for m in moves if m.get("action") == "draw" and m.get("source") != "deck"]
    return rng.choice(piles or moves)
