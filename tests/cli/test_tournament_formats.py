"""`keltis tournament --format`: round_robin and duplicate in-process, the pairs table, and
what is refused (account entries without --server)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import cli.tournament as tournament_cli
from cli.main import cli

BASE = ["tournament", "--no-progress", "--seed", "formats"]


def run(*arguments: str):
    return CliRunner().invoke(cli, [*BASE, *arguments])


def test_a_duplicate_tournament_needs_no_games_and_reports_pairs_per_deal():
    result = run("--format", "duplicate", "--games-per-table", "6", "--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert document["format"] == "duplicate" and document["games_per_table"] == 6
    assert document["games"] == 6 and [row["games"] for row in document["standings"]] == [6, 6]
    assert [o["deal"] for o in document["outcomes"]] == [0, 0, 1, 1, 2, 2]
    (pair,) = document["pairs"]
    assert pair["bots"] == ["greedy", "random"] and pair["unit"] == "deal" and pair["n"] == 3
    totals = document["win_totals"]
    assert totals["sole"] + totals["shared"] + totals["none"] == 6


def test_a_round_robin_plays_every_table_and_prints_the_pairs_after_the_standings():
    result = run("--format", "round_robin", "--bots", "greedy,random,random", "--players", "2")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("keltis-card round_robin: 6 games, 2 per game")
    pairs_at = next(i for i, line in enumerate(lines) if line.startswith("pairs:"))
    assert "per game" in lines[pairs_at]
    assert pairs_at > next(i for i, line in enumerate(lines) if line.startswith("random#2"))
    assert [line.split()[:3] for line in lines[pairs_at + 2 :]] == [
        ["greedy", "random#1", "2"],
        ["greedy", "random#2", "2"],
        ["random#1", "random#2", "2"],
    ]


def test_a_rotation_still_defaults_to_100_games():
    result = run("--json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert document["format"] == "rotation" and document["games"] == 100
    assert document["pairs"][0]["unit"] == "game" and document["pairs"][0]["n"] == 100


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--bots", "greedy,@alphabot", "--games", "4"], "account entries need --server"),
        (["--format", "duplicate", "--games-per-table", "3"], "multiple of players_per_game"),
        (["--format", "duplicate", "--games", "5"], "has 2 games"),
        (["--games-per-table", "4"], "games_per_table is for round_robin and duplicate"),
    ],
)
def test_impossible_tournaments_are_usage_errors(arguments, message):
    result = run(*arguments)
    assert result.exit_code == 2
    assert message in result.output


def test_with_server_the_body_carries_format_and_games_per_table(monkeypatch):
    sent = {}

    def fake_run_on_server(server, body, progress, account_keys=()):
        sent.update(body)
        raise SystemExit(0)

    monkeypatch.setattr(tournament_cli, "run_on_server", fake_run_on_server)
    arguments = ["--server", "http://127.0.0.1:9", "--format", "round_robin"]
    result = run(
        *arguments, "--games-per-table", "3", "--players", "2", "--bots", "greedy,random,@alphabot"
    )
    assert result.exit_code == 0, result.output
    assert sent["format"] == "round_robin" and sent["games_per_table"] == 3
    assert sent["games"] == 9 and sent["bots"] == ["greedy", "random", {"account": "alphabot"}]
    sent.clear()
    result = run("--server", "http://127.0.0.1:9", "--games", "8")
    assert sent["format"] == "rotation" and sent["games"] == 8
    assert "games_per_table" not in sent  # a rotation has no tables
