"""W1/W2: the board as data, its validation, and the board option."""

from __future__ import annotations

import copy
import json
from importlib import resources

import pytest

from domain.dice import RULES
from domain.dice.board import COLORS, BoardFileError, load_board, parse_board
from domain.errors import InvalidOptions


def basic_document() -> dict:
    text = resources.files("domain.dice").joinpath("boards", "basic.json").read_text("utf-8")
    return json.loads(text)


def test_W1_field_values_and_goal_zone():
    board = load_board("basic")
    for path in range(5):
        assert board.values[path][1:] == (-4, -3, -2, 1, 2, 3, 6, 7, 10)
    assert board.goal_from == 7


def test_W2_basic_bonus_table():
    board = load_board("basic")
    table = {
        "brown": (3, 5, 7),
        "yellow": (2, 6, 4),
        "pink": (7, 2, 8),
        "green": (5, 3, 6),
        "blue": (6, 4, 2),
    }
    for path, color in enumerate(COLORS):
        clover, stone, kobold = table[color]
        assert board.bonus[path][clover] == "clover"
        assert board.bonus[path][stone] == "stone"
        assert board.bonus[path][kobold] == "kobold"
        assert sum(1 for b in board.bonus[path] if b) == 3
        assert not any(board.forbidden[path])


def test_W2_advanced_side_adds_forbidden_fields():
    basic, advanced = load_board("basic"), load_board("advanced")
    assert advanced.bonus == basic.bonus
    forbidden = {
        color: [f for f in range(10) if advanced.forbidden[p][f]] for p, color in enumerate(COLORS)
    }
    assert forbidden == {
        "brown": [4],
        "yellow": [5],
        "pink": [3, 6],
        "green": [2],
        "blue": [5, 8],
    }


def test_W2_board_round_trips_through_its_json_layout():
    board = load_board("advanced")
    assert parse_board(board.to_json(), "view") == board


@pytest.mark.parametrize(
    ("breakage", "message"),
    [
        (lambda d: d.pop("paths"), '"paths"'),
        (lambda d: d["paths"].pop("blue"), '"paths"'),
        (lambda d: d["paths"]["pink"].update(values=[1, 2, 3]), "9 integers"),
        (lambda d: d["paths"]["pink"]["values"].__setitem__(0, "x"), "9 integers"),
        (lambda d: d["paths"]["green"]["bonuses"].update({"4": "dragon"}), "dragon"),
        (lambda d: d["paths"]["green"]["bonuses"].update({"10": "stone"}), "field number"),
        (lambda d: d["paths"]["brown"].update(forbidden=[9]), "may not be forbidden"),
        (lambda d: d["paths"]["brown"].update(forbidden=[3]), "both forbidden and a bonus"),
        (lambda d: d.update(goal_from=12), "goal_from"),
        (lambda d: d["paths"]["blue"].update(extra=1), "exactly"),
    ],
)
def test_W2_malformed_board_file_fails_with_clear_error(breakage, message):
    document = copy.deepcopy(basic_document())
    breakage(document)
    with pytest.raises(BoardFileError, match=message) as raised:
        parse_board(document, "boards/broken.json")
    assert "boards/broken.json" in str(raised.value)


def test_W2_unknown_board_name_is_refused_by_loader():
    with pytest.raises(BoardFileError, match="unknown board"):
        load_board("moon")


def test_W2_board_option_defaults_to_basic():
    assert RULES.normalize_options({}) == {"board": "basic"}
    assert RULES.normalize_options({"board": "advanced"}) == {"board": "advanced"}


@pytest.mark.parametrize("options", [{"board": "moon"}, {"colour": "red"}, {"board": 1}, []])
def test_W2_bad_options_are_rejected(options):
    with pytest.raises(InvalidOptions):
        RULES.normalize_options(options)


@pytest.mark.parametrize("players", [1, 5, 0])
def test_W4_player_count_between_two_and_four(players):
    from domain.chance import Chance

    with pytest.raises(InvalidOptions):
        RULES.start(players, {}, Chance(bytes(32)))


def test_W4_start_opens_with_game_started_and_first_roll():
    from domain.chance import Chance

    chance = Chance(bytes(range(32)))
    events = RULES.start(3, {"board": "advanced"}, chance)
    assert events[0] == {"type": "game_started", "players": 3, "options": {"board": "advanced"}}
    faces = ["brown", "yellow", "pink", "green", "blue", "stone"]
    expected = [faces[f] for f in chance.draws("roll:0", 5, 6)]
    assert events[1] == {"type": "dice_rolled", "seat": 0, "roll": 0, "dice": expected}
    state = RULES.fold(events)
    assert state.supply == 40
    assert all(row == (0, 0, 0, 0, 0) for row in state.positions)
    assert RULES.to_move(state) == 0
    assert RULES.phase(state) == "active"


def test_W2_broken_board_file_fails_at_load_time(tmp_path, monkeypatch):
    import domain.dice.board as board_module

    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "basic.json").write_text('{"name": "basic", "paths": ', "utf-8")
    monkeypatch.setattr(board_module.resources, "files", lambda package: tmp_path)
    load_board.cache_clear()
    try:
        with pytest.raises(BoardFileError, match="not valid JSON"):
            load_board("basic")
        (tmp_path / "boards" / "basic.json").write_text('{"name": "basic"}', "utf-8")
        with pytest.raises(BoardFileError, match="goal_from"):
            load_board("basic")
    finally:
        monkeypatch.undo()
        load_board.cache_clear()
    assert load_board("basic").name == "basic"
