"""The tournament formats: round_robin and duplicate schedules, and the specs refused."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest

from tournaments import schedule
from tournaments.errors import InvalidTournament
from tournaments.local import run_local
from tournaments.spec import make_spec

SHAPES = [(2, 2), (3, 2), (4, 2), (3, 3), (4, 3), (5, 3), (4, 4)]


def spec_of(fmt, entries, seats, per_table, bots=None):
    bots = bots or ["greedy", "random"] * 3
    return make_spec(
        "keltis-dice" if seats > 2 else "keltis-card",
        bots[:entries],
        seats,
        None,
        "formats",
        format=fmt,
        games_per_table=per_table,
    )


def plans(spec):
    return [spec.plan(index) for index in range(spec.games)]


@pytest.mark.parametrize(("entries", "seats"), SHAPES)
@pytest.mark.parametrize("rounds", [1, 3])
def test_round_robin_every_table_plays_games_per_table_games_with_seats_rotated(
    entries, seats, rounds
):
    spec = spec_of(schedule.ROUND_ROBIN, entries, seats, seats * rounds)
    tables = list(itertools.combinations(range(entries), seats))
    assert spec.games == len(tables) * seats * rounds == math.comb(entries, seats) * seats * rounds
    per_table = Counter(tuple(sorted(p.entries)) for p in plans(spec))
    assert per_table == {table: seats * rounds for table in tables}
    seat_counts: Counter = Counter()
    for plan in plans(spec):
        for seat, entry in enumerate(plan.entries):
            seat_counts[(tuple(sorted(plan.entries)), entry, seat)] += 1
    assert len(seat_counts) == len(tables) * seats * seats  # every entry of a table, every seat
    assert set(seat_counts.values()) == {rounds}  # ... equally often
    assert [p.deal for p in plans(spec)] == list(range(spec.games))  # every game its own deal


def test_round_robin_games_of_a_table_come_in_a_row_each_turned_one_seat():
    spec = spec_of(schedule.ROUND_ROBIN, 3, 2, 3)
    assert [p.entries for p in plans(spec)] == [
        (0, 1), (1, 0), (0, 1), (0, 2), (2, 0), (0, 2), (1, 2), (2, 1), (1, 2),
    ]  # fmt: skip


def test_round_robin_takes_a_games_per_table_that_is_not_a_multiple_of_the_seats():
    spec = spec_of(schedule.ROUND_ROBIN, 2, 2, 5)
    assert spec.games == 5
    assert Counter(p.entries for p in plans(spec)) == {(0, 1): 3, (1, 0): 2}


@pytest.mark.parametrize(("entries", "seats"), SHAPES)
@pytest.mark.parametrize("rounds", [1, 2])
def test_duplicate_plays_each_deal_once_per_seat_rotation_in_consecutive_games(
    entries, seats, rounds
):
    spec = spec_of(schedule.DUPLICATE, entries, seats, seats * rounds)
    planned = plans(spec)
    deals = [p.deal for p in planned]
    assert deals == [index // seats for index in range(spec.games)]  # consecutive groups of P
    assert len(set(deals)) == math.comb(entries, seats) * rounds
    for deal in set(deals):
        games = [index for index, d in enumerate(deals) if d == deal]
        assert spec.deal_games(games[0]) == range(games[0], games[0] + seats)
        assert all(spec.deal_games(index) == spec.deal_games(games[0]) for index in games)
        seatings = [planned[index].entries for index in games]
        assert len({frozenset(s) for s in seatings}) == 1  # one table
        for seat in range(seats):  # every entry of the table holds every seat's cards once
            assert sorted(s[seat] for s in seatings) == sorted(seatings[0])


def test_rotation_and_round_robin_games_are_their_own_deal():
    for spec in (make_spec("keltis-card", ["greedy", "random"], 2, 7, "r"),
                 spec_of(schedule.ROUND_ROBIN, 3, 2, 4)):  # fmt: skip
        for index in range(spec.games):
            assert spec.deal_games(index) == range(index, index + 1)
            assert spec.plan(index).deal == index


def test_rotation_plan_is_the_rotation_seating():
    spec = make_spec("keltis-card", ["greedy", "random", "greedy"], 2, 13, "r")
    for index in range(13):
        assert spec.plan(index).entries == schedule.seating(3, 2, index)


def test_games_default_to_tables_times_games_per_table_and_may_be_given_equal():
    spec = make_spec("keltis-card", ["greedy", "random", "random"], 2, 12, "s",
                     format=schedule.DUPLICATE, games_per_table=4)  # fmt: skip
    assert spec.games == 12 and spec.games_per_table == 4
    default = make_spec("keltis-card", ["greedy", "random"], None, None, "s",
                        format=schedule.ROUND_ROBIN)  # fmt: skip
    assert default.games == 2 and default.games_per_table == 2  # one game per seat


@pytest.mark.parametrize(
    ("bots", "players", "games", "fmt", "per_table", "message"),
    [
        (["greedy", "@alphabot"], 2, None, "duplicate", 2, "duplicate deals are for entries"),
        (["greedy", "random"], 2, None, "duplicate", 3, "multiple of players_per_game"),
        (["greedy", "random", "greedy"], 3, None, "duplicate", 4, "multiple of players_per"),
        (["greedy", "random"], 2, 7, "duplicate", 4, "has 4 games"),
        (["greedy", "random", "random"], 2, 10, "round_robin", 3, "has 9 games"),
        (["greedy", "random"] * 16, 2, None, "round_robin", 21, "at most 20 for 32 entries"),
        (["greedy", "random"], 2, None, "round_robin", 0, "at least 1"),
        (["greedy", "random"], 2, 10, "rotation", 2, "games_per_table is for"),
        (["greedy", "random"], 2, None, "rotation", None, "games must be"),
        (["greedy", "random"], 2, None, "swiss", None, "unknown format"),
        (["greedy", "@x"], 2, 2, "rotation", None, "malformed account entries"),
    ],
)
def test_invalid_format_combinations_are_refused_by_name(
    bots, players, games, fmt, per_table, message
):
    with pytest.raises(InvalidTournament, match=message):
        make_spec("keltis-card", bots, players, games, "s", format=fmt, games_per_table=per_table)


def test_the_refused_duplicate_with_an_account_says_why_and_what_to_use():
    with pytest.raises(InvalidTournament) as refused:
        make_spec("keltis-card", ["greedy", "@alphabot"], 2, None, "s", format="duplicate")
    assert "remember a deal" in refused.value.message
    assert "rotation or round_robin" in refused.value.message


def test_an_open_tournament_is_refused_in_process():
    spec = make_spec("keltis-card", ["greedy", "@alphabot"], 2, 4, "s")
    assert spec.open
    with pytest.raises(InvalidTournament, match=r"account entries need --server \(@alphabot\)"):
        run_local(spec)


def test_specs_of_every_format_round_trip_through_their_stored_form():
    from tournaments.spec import TournamentSpec

    for spec in (spec_of(schedule.DUPLICATE, 3, 2, 4), spec_of(schedule.ROUND_ROBIN, 4, 3, 5)):
        assert TournamentSpec.from_dict(spec.to_dict()) == spec


@pytest.mark.parametrize(
    ("bots", "turn_by_turn"),
    [
        (["greedy", "random"], False),  # instant bots: game jobs play whole games
        (["mcts", "greedy"], True),  # a search: one move per bot job
        (["greedy", "mcts:i40"], True),
        (["greedy", "@somebot"], True),  # an account: open
    ],
)
def test_only_instant_bots_play_whole_games_in_one_job(bots, turn_by_turn):
    spec = make_spec("keltis-card", bots, 2, 4, "jobs")
    assert spec.turn_by_turn is turn_by_turn
    assert spec.open is any(bot.startswith("@") for bot in bots)
