"""Standings math on hand-built results, and the CSV/JSON/PNG exports."""

from __future__ import annotations

import csv
import io
import json
import math

import pytest

from tournaments.chart import score_chart_png
from tournaments.export import CSV_COLUMNS, standings_csv, standings_json
from tournaments.standings import GameOutcome, entry_labels, mean_ci95, ratings, standings


def outcome(index, entries, scores, winners=None):
    if winners is None:
        best = max(scores)
        winners = [seat for seat, score in enumerate(scores) if score == best]
    return GameOutcome(index, f"t-g{index}", tuple(entries), tuple(scores), tuple(winners))


HAND_BUILT = [
    outcome(0, (0, 1), (10, 4)),  # entry 0 wins alone
    outcome(1, (1, 0), (7, 7)),  # tie: a shared win for both (K4)
    outcome(2, (0, 1), (2, 9)),  # entry 1 wins alone
    outcome(3, (1, 0), (3, 12)),  # entry 0 wins alone (seat 1)
]


def test_K4_a_tie_counts_as_a_shared_win_for_each_tied_entry_not_a_win():
    rows = standings(["greedy", "random"], 2, HAND_BUILT)
    assert [(r["wins"], r["shared_wins"]) for r in rows] == [(2, 1), (1, 1)]
    assert [r["games"] for r in rows] == [4, 4]
    assert rows[0]["win_rate"] == 0.5 and rows[1]["win_rate"] == 0.25


def test_mean_and_95_interval_are_a_student_t_interval_of_the_sample_standard_deviation():
    rows = standings(["greedy", "random"], 2, HAND_BUILT)
    scores = [10, 7, 2, 12]  # entry 0 in game order
    mean = sum(scores) / 4
    sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / 3)
    half = 3.182 * sd / 2  # t(0.975, 3)
    assert rows[0]["mean_score"] == pytest.approx(mean)
    assert rows[0]["score_ci95"] == pytest.approx([mean - half, mean + half], abs=1e-4)


def test_interval_of_one_or_no_games_has_zero_width():
    assert mean_ci95([5.0]) == (5.0, 5.0, 5.0)
    assert mean_ci95([]) == (0.0, 0.0, 0.0)
    assert mean_ci95([1.0, 1.0, 1.0]) == (1.0, 1.0, 1.0)


def test_seat_games_count_each_entry_per_seat():
    rows = standings(["greedy", "random"], 2, HAND_BUILT)
    assert [r["seat_games"] for r in rows] == [[2, 2], [2, 2]]


def test_rating_favours_the_better_entry_and_ignores_finishing_order():
    games = [outcome(i, (i % 2, 1 - i % 2), (20, 1) if i % 2 == 0 else (1, 20)) for i in range(20)]
    forward = ratings(2, games)
    backward = ratings(2, list(reversed(games)))
    assert forward == backward
    assert forward[0]["mu"] > 25 > forward[1]["mu"]
    assert forward[0]["ordinal"] == pytest.approx(
        forward[0]["mu"] - 3 * forward[0]["sigma"], abs=1e-3
    )
    assert forward[0]["sigma"] < 25 / 3


def test_repeated_bot_names_get_numbered_labels():
    assert entry_labels(["greedy", "random", "greedy"]) == ["greedy#1", "random", "greedy#2"]


def test_csv_export_has_a_header_and_one_line_per_entry():
    rows = standings(["greedy", "random"], 2, HAND_BUILT)
    parsed = list(csv.DictReader(io.StringIO(standings_csv(rows))))
    assert list(parsed[0]) == CSV_COLUMNS
    assert [p["bot"] for p in parsed] == ["greedy", "random"]
    assert parsed[0]["wins"] == "2" and parsed[0]["shared_wins"] == "1"
    assert float(parsed[0]["score_ci95_low"]) == rows[0]["score_ci95"][0]
    assert parsed[1]["seat_games"] == "2 2"


def test_json_export_round_trips():
    rows = standings(["greedy", "random"], 2, HAND_BUILT)
    document = {"id": "t", "standings": rows}
    assert json.loads(standings_json(document)) == document


def test_outcomes_round_trip_through_their_stored_form():
    for item in HAND_BUILT:
        stored = GameOutcome.from_dict(json.loads(json.dumps(item.to_dict())))
        assert stored.to_dict() == item.to_dict()
        assert stored.deal_or_index == item.deal_or_index


def test_score_chart_is_a_png():
    data = score_chart_png(["greedy", "random"], [[10, 7, 2, 12], [4, 7, 9, 3]], "test")
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(data) > 1000
