"""Placing the seats of a finished game: one ranking for every reader of a result (the
ladder, tournament standings, exports).

A seat that forfeited (timeouts, resignation, a stalled bot's timeouts) ranks after every
seat still in play, whatever its score; among equals the higher score ranks first, and a
missing score (a game ended early has none) counts as a tie.
"""

from __future__ import annotations

from collections.abc import Sequence


def ranks(scores: Sequence[float | None], forfeited: Sequence[bool]) -> list[int]:
    """Competition ranks (1 is best, ties share): forfeited seats after the seats in play,
    then higher scores first (a missing score counts as a tie)."""
    keys = [(lost, -(score or 0)) for score, lost in zip(scores, forfeited, strict=True)]
    return [1 + sum(other < mine for other in keys) for mine in keys]
