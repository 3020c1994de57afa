"""`python -m bench levels` (run by `make bench` with every other benchmark) prints the
levels' ratings and leaves the shipped application/ladder/levels_calibration.json alone; it writes
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


def _game(winner: str, loser: str, deal: int) -> dict:
    return {"seats": [winner, loser], "deal": deal, "scores": [20, 10]}


def _ladder_of_levels(late_upset: bool) -> list[dict]:
    """Each level beats the one below it 3 times in 4; with `late_upset`, level 5 beats level 4
    8 times in 12, its wins first and its losses last: the order that misleads a single fold."""
    games = []
    for low, high in zip(range(1, 5), range(2, 6), strict=True):
        for deal in range(12):
            won = deal % 4 != 3 if not (late_upset and high == 5) else deal < 8
            pair = (f"level:{high}", f"level:{low}") if won else (f"level:{low}", f"level:{high}")
            games.append(_game(*pair, deal))
    return games


def test_the_levels_rating_does_not_depend_on_the_order_of_the_games():
    games = _ladder_of_levels(late_upset=False)
    assert levels.rate("keltis-card", games, orders=8) == levels.rate(
        "keltis-card", list(reversed(games)), orders=8
    )


def test_a_level_winning_most_games_is_rated_above_even_when_its_losses_come_last():
    games = _ladder_of_levels(late_upset=True)
    single_fold, _ = levels.fold(levels.entry_of("keltis-card", n, g) for n, g in enumerate(games))
    mu = {name: single_fold[("keltis-card", f"bot:{name}")].mu for name in ("level:4", "level:5")}
    assert mu["level:5"] < mu["level:4"]  # the premise: one fold in this order misleads
    rows = levels.rate("keltis-card", games, orders=32)
    ratings = [rows[name]["mu"] for name in levels.level_names()]
    assert ratings == sorted(ratings)
    assert rows["level:5"]["games"] == 12


def test_levels_rerate_1_rates_the_shipped_games_without_playing(shipped, monkeypatch):
    games = _ladder_of_levels(late_upset=False)
    shipped.write_text(
        json.dumps(
            {
                "games": {},
                "played": {"keltis-card": games},
                "recipes": {"keltis-card": levels.recipes_by_name("keltis-card")},
                "runs": {"keltis-card": {"command": "the play", "deals": 12}},
            }
        )
    )

    def no_play(game, deals):
        raise AssertionError("a re-rating plays nothing")

    monkeypatch.setattr(levels, "calibrate", no_play)
    monkeypatch.setattr(levels, "ORDERS", 4)
    monkeypatch.setenv("LEVELS_WRITE", "1")
    monkeypatch.setenv("LEVELS_RERATE", "1")
    levels.run()
    data = json.loads(shipped.read_text())
    assert data["games"]["keltis-card"] == levels.rate("keltis-card", games, orders=4)
    assert data["played"]["keltis-card"] == games
    assert data["runs"]["keltis-card"] == {"command": "the play", "deals": 12, "orders": 4}


def test_levels_rerate_refuses_games_played_by_other_recipes(shipped, monkeypatch):
    shipped.write_text(
        json.dumps(
            {
                "played": {"keltis-card": _ladder_of_levels(late_upset=False)},
                "recipes": {"keltis-card": {"level:4": "mcts:i60"}},
            }
        )
    )
    monkeypatch.setenv("LEVELS_RERATE", "1")
    with pytest.raises(SystemExit, match="not played by its recipes"):
        levels.run()
