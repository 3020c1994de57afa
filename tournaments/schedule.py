"""Who sits where in game k of a tournament: fair seat rotation.

Scheme. Let E be the number of bot entries and P the seats per game. One *block* lists
every P-combination of entries (lexicographic order) and, for each, its P cyclic rotations:
the combination (a, b, c) gives seatings (a, b, c), (b, c, a), (c, a, b). Game k uses
seating k mod B of the block, B = C(E, P) * P. Within one block every entry plays each
seat exactly C(E-1, P-1) times and meets every possible set of opponents; so whenever
the number of games is a multiple of B, every entry plays every seat equally often.
(E = P: B = P and game k seats entry (seat + k) mod P, exactly as `keltis simulate`
does.) A last partial block is as fair as its length allows; the standings report each
entry's games per seat, so any imbalance is visible.
"""

from __future__ import annotations

import itertools
from functools import cache


@cache
def block(entries: int, seats: int) -> tuple[tuple[int, ...], ...]:
    """Every seating of one block: entry index per seat."""
    seatings = []
    for combination in itertools.combinations(range(entries), seats):
        for shift in range(seats):
            seatings.append(tuple(combination[(seat + shift) % seats] for seat in range(seats)))
    return tuple(seatings)


def block_size(entries: int, seats: int) -> int:
    """B: the number of games after which the rotation is exactly fair."""
    return len(block(entries, seats))


def seating(entries: int, seats: int, game: int) -> tuple[int, ...]:
    """The entry index playing each seat in game `game` (counted from 0)."""
    seatings = block(entries, seats)
    return seatings[game % len(seatings)]


def seat_counts(entries: int, seats: int, games: int) -> list[list[int]]:
    """How often each entry plays each seat over the first `games` games."""
    counts = [[0] * seats for _ in range(entries)]
    for game in range(games):
        for seat, entry in enumerate(seating(entries, seats, game)):
            counts[entry][seat] += 1
    return counts
