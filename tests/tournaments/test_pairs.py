"""Standings that answer "is A better than B?": timeouts, forfeits, win totals, the pairs
table (per deal in duplicate, per game otherwise) and how the summary carries them."""

from __future__ import annotations

import csv
import io
import json
import math
import statistics

import pytest

from store import keys
from tournaments import schedule, seeds
from tournaments.export import standings_csv
from tournaments.local import run_local
from tournaments.spec import make_spec
from tournaments.standings import (
    GameOutcome,
    mean_ci95,
    pair_differences,
    pairs,
    standings,
    t_975,
    win_totals,
)
from tournaments.summary import StandingsTable, compute_table, export_document, summary


def outcome(index, entries, scores, deal=-1, timeouts=(), forfeited=()):
    best = max(scores)
    winners = tuple(seat for seat, score in enumerate(scores) if score == best)
    return GameOutcome(
        index, f"t-g{index}", tuple(entries), tuple(scores), winners, deal, timeouts, forfeited
    )


def test_t_quantiles_come_from_the_table_and_tend_to_the_normal():
    assert t_975(1) == 12.706 and t_975(3) == 3.182 and t_975(30) == 2.042
    assert t_975(35) == t_975(30)  # between rows: the row below (a slightly wider interval)
    assert t_975(399) == 1.972 and t_975(5000) == 1.96
    assert all(t_975(df) >= t_975(df + 1) for df in range(1, 1200))
    with pytest.raises(ValueError):
        t_975(0)


def test_the_interval_covers_the_mean_at_about_95_percent():
    import random

    rng = random.Random(5)
    covered = 0
    for _ in range(2000):
        _, low, high = mean_ci95([rng.gauss(3.0, 2.0) for _ in range(8)])
        covered += low <= 3.0 <= high
    assert 0.93 <= covered / 2000 <= 0.97  # a normal interval (1.96) would cover about 91%


def test_timeouts_and_forfeits_are_counted_per_entry_from_the_outcomes():
    games = [
        outcome(0, (0, 1), (5, 3), timeouts=(2, 0)),
        outcome(1, (1, 0), (4, 6), timeouts=(1, 1), forfeited=(0,)),
        outcome(2, (0, 1), (5, 3)),  # no clock: no timeouts recorded
    ]
    rows = standings(["@alpha", "greedy"], 2, games)
    assert [(r["timeouts"], r["forfeits"]) for r in rows] == [(3, 0), (1, 1)]


def test_wins_with_shared_wins_counted_once_per_game_add_up_to_the_games():
    games = [
        outcome(0, (0, 1, 2), (5, 3, 1)),
        outcome(1, (1, 2, 0), (4, 4, 1)),  # two tied winners
        outcome(2, (2, 0, 1), (7, 7, 7)),  # three tied winners
        outcome(3, (0, 1, 2), (1, 9, 2)),
    ]
    nobody = GameOutcome(4, "t-g4", (1, 2, 0), (0, 0, 0), (), forfeited=(0, 1, 2))
    games.append(nobody)
    totals = win_totals(games)
    assert totals == {"games": 5, "sole": 2, "shared": 2, "none": 1}
    rows = standings(["a", "b", "c"], 3, games)
    assert sum(r["wins"] for r in rows) == totals["sole"]
    assert sum(r["shared_wins"] for r in rows) == 2 + 3  # once per tied entry
    assert totals["sole"] + totals["shared"] + totals["none"] == len(games)


def test_pairs_per_game_take_the_difference_in_every_game_both_sat_in():
    games = [
        outcome(0, (0, 1), (10, 4)),
        outcome(1, (1, 2), (7, 7)),
        outcome(2, (2, 0), (9, 2)),
        outcome(3, (0, 1), (3, 5)),
        outcome(4, (1, 0), (6, 8)),
    ]
    rows = pairs(["a", "b", "c"], games)
    assert [row["entries"] for row in rows] == [[0, 1], [0, 2], [1, 2]]
    ab = rows[0]
    diffs = [6, -2, 2]  # a - b in games 0, 3, 4
    mean, low, high = mean_ci95(diffs)
    assert ab["unit"] == "game" and ab["n"] == 3 and ab["bots"] == ["a", "b"]
    assert ab["mean_diff"] == pytest.approx(2.0)
    assert ab["diff_ci95"] == pytest.approx([low, high], abs=1e-4)
    sd = statistics.stdev(diffs)
    assert high - mean == pytest.approx(t_975(2) * sd / math.sqrt(3))
    assert ab["better"] is None  # the interval straddles 0
    assert rows[1]["n"] == 1 and rows[1]["diff_ci95"] is None  # one game: no interval
    assert rows[2]["mean_diff"] == 0.0


def test_a_pair_whose_interval_is_on_one_side_names_the_better_entry():
    games = [
        outcome(i, (i % 2, 1 - i % 2), (10 + i % 3, 2) if i % 2 == 0 else (3, 9)) for i in range(10)
    ]
    (row,) = pairs(["greedy", "random"], games)
    assert row["diff_ci95"][0] > 0 and row["better"] == "greedy"
    flipped = [outcome(o.index, o.entries[::-1], o.scores) for o in games]
    assert pairs(["greedy", "random"], flipped)[0]["better"] == "random"


def test_duplicate_pairs_are_per_deal_over_complete_deals_only():
    # Deal 0 and 1 at the table (0, 1), each played once per seat rotation; deal 2 half done.
    games = [
        outcome(0, (0, 1), (10, 2), deal=0),
        outcome(1, (1, 0), (9, 5), deal=0),
        outcome(2, (0, 1), (4, 4), deal=1),
        outcome(3, (1, 0), (1, 7), deal=1),
        outcome(4, (0, 1), (8, 1), deal=2),
    ]
    (row,) = pairs(["greedy", "random"], games, deal_size=2)
    per_deal = [(10 + 5) / 2 - (2 + 9) / 2, (4 + 7) / 2 - (4 + 1) / 2]
    assert row["unit"] == "deal" and row["n"] == 2
    assert row["mean_diff"] == pytest.approx(statistics.mean(per_deal))
    _, low, high = mean_ci95(per_deal)
    assert row["diff_ci95"] == pytest.approx([low, high], abs=1e-4)


def test_duplicate_pairs_compare_only_entries_of_the_same_table():
    spec = make_spec("keltis-card", ["greedy", "random", "greedy"], 2, None, "tables",
                     format=schedule.DUPLICATE, games_per_table=4)  # fmt: skip
    outcomes = run_local(spec)
    differences = pair_differences(3, outcomes, 2)
    # Three tables of two entries, two deals each: every pair meets over exactly two deals.
    assert {pair: len(d) for pair, d in differences.items()} == {(0, 1): 2, (0, 2): 2, (1, 2): 2}


def test_in_process_the_games_of_a_duplicate_deal_play_the_deals_seed(monkeypatch):
    import tournaments.local as local

    played = []
    real = local.play_game

    def recording(rules, bots, seed, bot_seed, options=None):
        played.append((tuple(bots), seed, bot_seed))
        return real(rules, bots, seed, bot_seed, options=options)

    monkeypatch.setattr(local, "play_game", recording)
    spec = make_spec("keltis-card", ["greedy", "random"], 2, None, "deals",
                     format=schedule.DUPLICATE, games_per_table=6)  # fmt: skip
    outcomes = run_local(spec)
    assert [o.deal for o in outcomes] == [0, 0, 1, 1, 2, 2]
    for first in (0, 2, 4):
        (bots_a, seed_a, _), (bots_b, seed_b, _) = played[first], played[first + 1]
        assert seed_a == seed_b == seeds.game_seed("deals", first // 2)
        assert bots_b == bots_a[::-1]  # the other seat rotation of the same cards
    assert len({seed for _, seed, _ in played}) == 3


def test_the_summary_and_export_carry_format_pairs_and_the_new_columns():
    spec = make_spec("keltis-card", ["greedy", "random"], 2, None, "sum",
                     format=schedule.DUPLICATE, games_per_table=6)  # fmt: skip
    outcomes = run_local(spec)
    found = summary("local", spec, 0, len(outcomes), compute_table(spec, outcomes), 1, "none")
    assert found["format"] == "duplicate" and found["games_per_table"] == 6
    assert found["games"] == 6
    assert all("pairs" not in row for row in found["standings"])
    (pair,) = found["pairs"]
    assert pair["unit"] == "deal" and pair["n"] == 3 and pair["bots"] == ["greedy", "random"]
    assert {"timeouts", "forfeits"} <= set(found["standings"][0])
    document = export_document(found, spec, outcomes)
    assert document["pairs"] == found["pairs"]
    assert document["win_totals"]["games"] == 6
    assert [o["deal"] for o in document["outcomes"]] == [0, 0, 1, 1, 2, 2]
    parsed = list(csv.DictReader(io.StringIO(standings_csv(found["standings"]))))
    assert len(parsed) == 2 and parsed[0]["timeouts"] == "0" and parsed[0]["forfeits"] == "0"


def test_a_rotation_summary_has_per_game_pairs_and_no_games_per_table():
    spec = make_spec("keltis-card", ["greedy", "random", "random"], 2, 12, "rot")
    outcomes = run_local(spec)
    found = summary("local", spec, 0, 12, compute_table(spec, outcomes), 1, "none")
    assert found["format"] == "rotation" and found["games_per_table"] is None
    assert [p["entries"] for p in found["pairs"]] == [[0, 1], [0, 2], [1, 2]]
    assert all(p["unit"] == "game" and p["n"] == 4 for p in found["pairs"])


def test_standings_cached_before_pairs_existed_are_computed_afresh(redis_client):
    from store.tournaments.records import TournamentStore

    spec = make_spec("keltis-card", ["greedy", "random"], 2, 2, "old")
    table = compute_table(spec, run_local(spec))
    store = TournamentStore(redis_client)
    old_rows = [{k: v for k, v in row.items() if k not in ("timeouts", "forfeits")}
                for row in table.rows]  # fmt: skip
    redis_client.set(
        keys.tournament_standings("old-cache"), json.dumps({"done": 2, "rows": old_rows})
    )
    assert store.cached_standings("old-cache", 2) is None  # stale: recomputed by describe
    store.cache_standings("old-cache", 2, table)
    assert store.cached_standings("old-cache", 2) == StandingsTable(table.rows, table.pairs)
