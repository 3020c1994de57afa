"""Seat rotation and per-game seeds of tournaments."""

from __future__ import annotations

import hashlib
import itertools
import math

import pytest

from tournaments import schedule, seeds
from tournaments.errors import InvalidTournament
from tournaments.spec import make_spec


def seat_counts(entries: int, seats: int, games: int) -> list[list[int]]:
    """How often each entry plays each seat over the first `games` games of a rotation."""
    counts = [[0] * seats for _ in range(entries)]
    for game in range(games):
        for seat, entry in enumerate(schedule.seating(entries, seats, game)):
            counts[entry][seat] += 1
    return counts


@pytest.mark.parametrize(("entries", "seats"), [(2, 2), (3, 2), (3, 3), (4, 2), (4, 3), (4, 4)])
def test_every_entry_plays_every_seat_equally_often_per_block(entries, seats):
    size = schedule.block_size(entries, seats)
    assert size == math.comb(entries, seats) * seats
    for blocks in (1, 3):
        counts = seat_counts(entries, seats, size * blocks)
        expected = math.comb(entries - 1, seats - 1) * blocks
        assert counts == [[expected] * seats for _ in range(entries)]


@pytest.mark.parametrize(("entries", "seats"), [(3, 2), (4, 2), (4, 3)])
def test_every_set_of_opponents_meets_within_a_block(entries, seats):
    met = {frozenset(schedule.seating(entries, seats, g)) for g in range(entries * 10)}
    assert met == {frozenset(c) for c in itertools.combinations(range(entries), seats)}


def test_seatings_never_repeat_an_entry_within_a_game():
    for game in range(50):
        seating = schedule.seating(5, 3, game)
        assert len(set(seating)) == 3


@pytest.mark.parametrize("entries", [2, 3, 4])
def test_full_tables_rotate_one_seat_per_game(entries):
    # The documented rotation of `keltis simulate`: seat i of game k is entry (i + k) mod n.
    for game in range(12):
        expected = tuple((seat + game) % entries for seat in range(entries))
        assert schedule.seating(entries, entries, game) == expected


def test_game_seeds_follow_the_documented_derivation_and_differ():
    derived = [seeds.game_seed("abc", game) for game in range(100)]
    assert derived[7] == hashlib.sha256(b"abc:game:7").digest()
    assert len(set(derived)) == 100
    assert seeds.game_seed("abd", 7) != derived[7]
    assert all(len(seed) == 32 for seed in derived)


def test_game_ids_are_valid_store_ids_derived_from_tournament_and_index():
    from store.keys import GAME_ID_PATTERN

    tid = seeds.new_tournament_id()
    assert seeds.game_id(tid, 3) == seeds.game_id(tid, 3)
    assert seeds.game_id(tid, 3) != seeds.game_id(tid, 4)
    assert GAME_ID_PATTERN.match(seeds.game_id(tid, 9999))
    assert seeds.TOURNAMENT_ID_PATTERN.match(tid)


@pytest.mark.parametrize(
    ("bots", "players", "games", "message"),
    [
        (["greedy", "nobody"], None, 10, "unknown bots"),
        (["greedy", "random"], 3, 10, "may not exceed"),
        (["greedy", "random", "greedy", "random", "greedy"], 5, 10, "2 to 4 players"),
        (["greedy", "random"], None, 0, "games must be"),
    ],
)
def test_bad_specs_are_refused_by_name(bots, players, games, message):
    with pytest.raises(InvalidTournament, match=message):
        make_spec("keltis-card", bots, players, games, "s")


def test_a_spec_without_seed_gets_a_server_seed():
    first = make_spec("keltis-card", ["greedy", "random"], None, 4, None)
    second = make_spec("keltis-card", ["greedy", "random"], None, 4, None)
    assert first.players_per_game == 2
    assert len(first.seed) == 64 and first.seed != second.seed
