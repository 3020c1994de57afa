"""Who sits where in game k of a tournament, and which deal (game seed) it plays.

Three formats. E is the number of entries, P the seats per game.

- `rotation` (the default): one *block* lists every P-combination of entries (lexicographic
  order) and, for each, its P cyclic rotations: the combination (a, b, c) gives seatings
  (a, b, c), (b, c, a), (c, a, b). Game k uses seating k mod B of the block, B = C(E, P) * P.
  Within one block every entry plays each seat exactly C(E-1, P-1) times and meets every
  possible set of opponents; so whenever the number of games is a multiple of B, every
  entry plays every seat equally often. (E = P: B = P and game k seats entry (seat + k) mod
  P, exactly as `keltis simulate` does.) Every game plays its own deal.
- `round_robin`: every table (P-combination, lexicographic order) plays `games_per_table`
  games in a row, game j of a table with the table's seats rotated j times. Every game
  plays its own deal.
- `duplicate`: as round_robin, but the games of a table come in groups of P that play one
  deal, once per seat rotation: every entry of the table holds every seat's cards once, so
  the cards' luck cancels. `games_per_table` is a multiple of P.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache
from math import comb

MAX_GAMES = 10_000  # games of one tournament, at most

ROTATION = "rotation"
ROUND_ROBIN = "round_robin"
DUPLICATE = "duplicate"
FORMATS = (ROTATION, ROUND_ROBIN, DUPLICATE)


@dataclass(frozen=True)
class PlannedGame:
    """One game of a tournament: the entry index per seat, and the deal it plays."""

    entries: tuple[int, ...]
    deal: int


@cache
def tables(entries: int, seats: int) -> tuple[tuple[int, ...], ...]:
    """Every P-combination of entries, in lexicographic order."""
    return tuple(itertools.combinations(range(entries), seats))


def rotated(table: tuple[int, ...], shift: int) -> tuple[int, ...]:
    """The table's entries with the seats turned `shift` times."""
    seats = len(table)
    return tuple(table[(seat + shift) % seats] for seat in range(seats))


@cache
def block(entries: int, seats: int) -> tuple[tuple[int, ...], ...]:
    """Every seating of one rotation block: entry index per seat."""
    return tuple(
        rotated(table, shift) for table in tables(entries, seats) for shift in range(seats)
    )


def block_size(entries: int, seats: int) -> int:
    """B: the number of games after which the rotation is exactly fair."""
    return len(block(entries, seats))


def seating(entries: int, seats: int, game: int) -> tuple[int, ...]:
    """The entry index playing each seat in game `game` (counted from 0) of a rotation."""
    seatings = block(entries, seats)
    return seatings[game % len(seatings)]


# The most entries of each step of games per table, by seats per table. A step allows what
# its largest entry count allows (MAX_GAMES / its tables), so no tournament of the step
# passes MAX_GAMES. Steps rather than MAX_GAMES / tables for every count, so that the
# contract can state the bound (a JSON Schema branch per step; one per entry count is more
# than contract testers can draw from). Past the last step, no table of that size.
PER_TABLE_STEPS: dict[int, tuple[int, ...]] = {
    2: (2, 8, 32),
    3: (3, 8, 15, 32),
    4: (4, 8, 12, 16, 23),
}


def max_games_per_table(entries: int, seats: int) -> int:
    """The most games each table of a round_robin or duplicate may play (0: too many
    entries for tables of `seats`)."""
    for most_entries in PER_TABLE_STEPS.get(seats, ()):
        if entries <= most_entries:
            return MAX_GAMES // comb(most_entries, seats)
    return 0


def total_games(fmt: str, entries: int, seats: int, games_per_table: int) -> int:
    """How many games a round_robin or duplicate tournament has."""
    return len(tables(entries, seats)) * games_per_table


def planned(fmt: str, entries: int, seats: int, games_per_table: int, game: int) -> PlannedGame:
    """Seating and deal of game `game` of a tournament of format `fmt`."""
    if fmt == ROTATION:
        return PlannedGame(seating(entries, seats, game), game)
    table_index, within = divmod(game, games_per_table)
    table = tables(entries, seats)[table_index]
    if fmt == ROUND_ROBIN:
        return PlannedGame(rotated(table, within), game)
    deals_per_table = games_per_table // seats
    group, shift = divmod(within, seats)
    return PlannedGame(rotated(table, shift), table_index * deals_per_table + group)


def deal_games(fmt: str, seats: int, games_per_table: int, game: int) -> range:
    """The indexes of every game that plays the same deal as game `game`."""
    if fmt != DUPLICATE:
        return range(game, game + 1)
    first = game - game % seats  # groups of P start at multiples of P (games_per_table % P == 0)
    return range(first, first + seats)
