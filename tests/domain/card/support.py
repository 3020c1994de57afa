"""Small helpers for keltis-card tests."""

from __future__ import annotations

import hashlib

from domain.card import RULES
from domain.chance import Chance


def chance(label: str = "test") -> Chance:
    """A deterministic Chance for tests."""
    return Chance(hashlib.sha256(label.encode()).digest())


def play(state, seat: int, command: dict):
    """decide + evolve: (events, new state)."""
    events = RULES.decide(state, seat, command, chance())
    for event in events:
        state = RULES.evolve(state, event)
    return events, state


def moves(state, seat: int | None = None) -> list[dict]:
    """Legal moves as plain dicts."""
    seat = state.to_move if seat is None else seat
    return [dict(move) for move in RULES.legal_moves(state, seat)]
