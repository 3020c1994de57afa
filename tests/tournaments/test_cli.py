"""`keltis tournament`: in-process by default, or against a live server with --server."""

from __future__ import annotations

import csv
import json

import pytest
from click.testing import CliRunner

from cli.main import cli
from cli.serve import start_stack
from cli.simulate import run_simulation
from tests.support.ports import free_port


def test_in_process_tournament_equals_the_simulator_and_writes_its_exports(tmp_path):
    chart, table = tmp_path / "scores.png", tmp_path / "standings.csv"
    arguments = ["tournament", "--games", "12", "--seed", "cli", "--json", "--no-progress"]
    result = CliRunner().invoke(cli, [*arguments, "--chart", str(chart), "--csv", str(table)])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    simulated = run_simulation("keltis-card", ["greedy", "random"], 12, "cli", progress=False)
    for row, expected in zip(document["standings"], simulated["bots"], strict=True):
        assert row["bot"] == expected["bot"]
        assert (row["games"], row["wins"], row["shared_wins"]) == (
            expected["games"],
            expected["wins"],
            expected["shared_wins"],
        )
        assert row["score_ci95"] == pytest.approx(expected["score_ci95"], abs=1e-3)
        assert len(row["scores"]) == 12
    assert chart.read_bytes().startswith(b"\x89PNG")
    rows = list(csv.DictReader(table.open()))
    assert [r["bot"] for r in rows] == ["greedy", "random"]


def test_the_table_names_every_bot_and_its_rating():
    result = CliRunner().invoke(
        cli,
        ["tournament", "--bots", "greedy,random,random", "--players", "2", "--games", "6"],
    )
    assert result.exit_code == 0, result.output
    for label in ("greedy", "random#1", "random#2", "mu/sigma/ordinal"):
        assert label in result.output


def test_bad_bots_are_a_usage_error():
    result = CliRunner().invoke(cli, ["tournament", "--bots", "greedy,nobody", "--games", "2"])
    assert result.exit_code == 2
    assert "unknown bots" in result.output


@pytest.mark.redis
@pytest.mark.slow
def test_against_a_server_the_cli_posts_polls_and_prints_the_standings(redis_url, tmp_path):
    stack = start_stack(
        port=free_port(), web_workers=1, connections=50, bot_workers=2, redis_url=redis_url
    )
    try:
        table = tmp_path / "standings.csv"
        result = CliRunner().invoke(
            cli,
            [
                "tournament",
                "--server",
                stack.base_url,
                "--games",
                "10",
                "--seed",
                "live",
                "--json",
                "--csv",
                str(table),
            ],
        )
    finally:
        stack.stop()
    assert result.exit_code == 0, result.output
    document = json.loads(result.output[result.output.index("{") :])
    assert document["status"] == "finished" and document["seed"] == "live"
    assert [row["games"] for row in document["standings"]] == [10, 10]
    assert len(document["outcomes"]) == 10
    assert table.read_text().startswith("bot,games,wins")


def test_W2_an_in_process_tournament_takes_game_options():
    arguments = ["tournament", "--game", "keltis-dice", "--games", "4", "--json", "--no-progress"]
    advanced = CliRunner().invoke(cli, [*arguments, "--option", "board=advanced"])
    assert advanced.exit_code == 0, advanced.output
    assert json.loads(advanced.output)["options"] == {"board": "advanced"}
    refused = CliRunner().invoke(cli, [*arguments, "--option", "board=round"])
    assert refused.exit_code == 2
