"""R3 through `keltis replay`: verify exit codes and messages, malformed files, show, html."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cli.main import cli
from replays.files import dump_replay
from replays.verify import verify
from tests.replays.conftest import finished_replay


def _write(tmp_path, replay, name="game.json"):
    path = tmp_path / name
    path.write_text(dump_replay(replay) if isinstance(replay, dict) else replay)
    return str(path)


def _run(*args):
    return CliRunner().invoke(cli, ["replay", *args])


def test_R3_cli_verify_ok_prints_one_line_summary(tmp_path, game):
    result = _run("verify", _write(tmp_path, finished_replay(game)))
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("OK: ") and game in lines[0]


def test_R3_cli_verify_tampered_exits_1_naming_entry(tmp_path, game):
    replay = finished_replay(game)
    replay["entries"][9]["e"]["seat"] = 3
    result = _run("verify", _write(tmp_path, replay))
    assert result.exit_code == 1
    assert "FAILED [chain] (entry n=10)" in result.output


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", "a replay is a JSON object"),
        (json.dumps({"format": "something-else"}), "not a keltis-replay file"),
    ],
)
def test_R3_cli_verify_malformed_file_has_clear_message(tmp_path, content, message):
    result = _run("verify", _write(tmp_path, content))
    assert result.exit_code == 1
    assert message in result.output


def test_R3_wrong_format_version_is_named():
    replay = finished_replay("keltis-dice")
    replay["format_version"] = 99
    report = verify(replay)
    assert (report.ok, report.check) == (False, "format")
    assert "format_version 99 is not one this tool reads (1)" in report.message


@pytest.mark.parametrize("key", ["header", "seed", "entries", "result", "chain"])
def test_R3_missing_key_is_named(key):
    replay = finished_replay("keltis-card")
    del replay[key]
    report = verify(replay)
    assert (report.ok, report.check) == (False, "format")
    assert key in report.message


def test_R3_missing_entry_field_is_named():
    replay = finished_replay("keltis-card")
    del replay["entries"][3]["at"]
    from replays.chain import build_chain

    replay["chain"] = build_chain(replay)
    report = verify(replay)
    assert (report.ok, report.check, report.n) == (False, "log", 4)
    assert "lacks at" in report.message


def test_R3_cli_verify_missing_file_is_clear(tmp_path):
    result = _run("verify", str(tmp_path / "nope.json"))
    assert result.exit_code == 1
    assert "cannot read" in result.output


def test_R3_cli_show_reveals_every_hand(tmp_path):
    replay = finished_replay("keltis-card", players=3)
    path = _write(tmp_path, replay)
    result = _run("show", path, "--step", "1")
    assert result.exit_code == 0, result.output
    assert result.output.startswith("── step 1/")
    assert sum(line.startswith("hand ") for line in result.output.splitlines()) == 3
    dealt = [
        e["e"]["hidden"]["cards"] for e in replay["entries"] if e["e"]["type"] == "cards_dealt"
    ]
    assert " ".join(dealt[1]) in result.output  # seat 1's hand, untouched by seat 0's first move


def test_R3_cli_show_all_steps_ends_with_result(tmp_path, game):
    replay = finished_replay(game, players=2)
    result = _run("show", _write(tmp_path, replay), "--no-interactive")
    assert result.exit_code == 0, result.output
    commands = sum("cmd" in entry for entry in replay["entries"])
    assert result.output.count("── step ") == commands + 1
    assert "won by" in result.output.splitlines()[-1]


def test_R3_cli_show_refuses_tampered_replay(tmp_path):
    replay = finished_replay("keltis-dice")
    replay["entries"][5]["e"]["seat"] = 1
    result = _run("show", _write(tmp_path, replay), "--step", "0")
    assert result.exit_code == 1
    assert "FAILED" in result.output


def test_R3_cli_show_step_out_of_range(tmp_path):
    result = _run("show", _write(tmp_path, finished_replay("keltis-dice")), "--step", "100000")
    assert result.exit_code != 0
    assert "--step must be between 0 and" in result.output


def test_R3_cli_play_writes_verifiable_replay(tmp_path):
    out = tmp_path / "p.json"
    result = _run(
        "play", "keltis-dice", "--bots", "greedy,random,random", "--seed", "ab" * 32, "-o", str(out)
    )
    assert result.exit_code == 0, result.output
    assert _run("verify", str(out)).exit_code == 0


def test_R3_cli_html_writes_page(tmp_path):
    path = _write(tmp_path, finished_replay("keltis-card"))
    result = _run("html", path, "-o", str(tmp_path / "page.html"))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "page.html").read_text().startswith("<!DOCTYPE html>")


def test_R3_cli_html_refuses_tampered_replay(tmp_path):
    replay = finished_replay("keltis-card")
    replay["result"]["winners"] = [0]
    result = _run("html", _write(tmp_path, replay), "-o", str(tmp_path / "page.html"))
    assert result.exit_code == 1
    assert not (tmp_path / "page.html").exists()


def test_R3_cli_show_interactive_waits_for_enter_and_q_quits(tmp_path):
    path = _write(tmp_path, finished_replay("keltis-dice", players=2))
    result = CliRunner().invoke(cli, ["replay", "show", path, "--interactive"], input="\n\nq\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("── step ") == 3
    assert "won by" not in result.output
