"""`python -m bench levels` (run by `make bench` with every other benchmark) prints the
levels' ratings and leaves the shipped application/levels_calibration.json alone; it writes
the file only when asked with LEVELS_WRITE=1."""

from __future__ import annotations

import json

import pytest

from bench import levels

FOUND = {"levels": {"level:1": {"mu": 20.0, "sigma": 2.0, "games": 4}}, "games": []}


@pytest.fixture
def shipped(tmp_path, monkeypatch):
    """The data file the run would write, here a copy in tmp_path; calibration is stubbed."""
    path = tmp_path / "levels_calibration.json"
    path.write_text("{}\n")
    monkeypatch.setattr(levels, "DATA_PATH", path)
    monkeypatch.setattr(levels, "GAMES", ["keltis-card"])
    monkeypatch.setattr(levels, "calibrate", lambda game, deals: FOUND)
    return path


@pytest.mark.parametrize("setting", [None, "0", "yes"])
def test_a_bench_run_prints_the_ratings_and_leaves_the_shipped_file(
    shipped, monkeypatch, capsys, setting
):
    if setting is None:
        monkeypatch.delenv("LEVELS_WRITE", raising=False)
    else:
        monkeypatch.setenv("LEVELS_WRITE", setting)
    levels.run()
    assert "level_rating_keltis-card_1 20.00" in capsys.readouterr().out
    assert shipped.read_text() == "{}\n"


def test_levels_write_1_writes_the_shipped_file(shipped, monkeypatch, capsys):
    monkeypatch.setenv("LEVELS_WRITE", "1")
    levels.run()
    assert f"# wrote {shipped}" in capsys.readouterr().out
    data = json.loads(shipped.read_text())
    assert data["games"]["keltis-card"] == FOUND["levels"]
    assert data["runs"]["keltis-card"]["command"].startswith("LEVELS_WRITE=1 ")


def test_a_write_of_one_game_keeps_the_other_games_entries(shipped, monkeypatch):
    dice = {"level:1": {"mu": 3.0, "sigma": 1.0, "games": 2}}
    shipped.write_text(
        json.dumps(
            {
                "games": {"keltis-dice": dice},
                "played": {"keltis-dice": []},
                "recipes": {"keltis-dice": {"level:4": "greedy"}},
                "runs": {"keltis-dice": {"command": "old", "deals": 2}},
            }
        )
    )
    monkeypatch.setenv("LEVELS_WRITE", "1")
    levels.run()
    data = json.loads(shipped.read_text())
    assert data["games"] == {"keltis-card": FOUND["levels"], "keltis-dice": dice}
    assert data["runs"]["keltis-dice"] == {"command": "old", "deals": 2}
    assert data["recipes"]["keltis-card"]["level:4"] == "greedy"
    assert data["recipes"]["keltis-dice"] == {"level:4": "greedy"}  # the file's, kept
    assert data["played"]["keltis-dice"] == []
