"""End of the game (F1) and scoring (F2-F4), with the rule book's worked example."""

from __future__ import annotations

import pytest

from domain.dice import RULES
from domain.dice.board import COLORS
from domain.dice.scoring import tile_points
from domain.dice.state import FINISHED
from domain.errors import GameOver
from tests.domain.dice.helpers import ScriptedChance, apply, make_state

NEXT = ["pink"] * 5
VALUE_FIELD = {-4: 1, -3: 2, -2: 3, 1: 4, 2: 5, 3: 6, 6: 7, 7: 8, 10: 9}


def goal_setup(players: int, in_goal: int) -> dict[int, dict[str, int]]:
    """`in_goal` markers on field 8, colour by colour round the seats (blue stays free)."""
    markers: dict[int, dict[str, int]] = {seat: {} for seat in range(players)}
    slots = [(seat, color) for color in ("brown", "yellow", "pink") for seat in range(players)]
    for seat, color in slots[:in_goal]:
        markers[seat][color] = 8
    return markers


@pytest.mark.parametrize(("players", "threshold"), [(2, 5), (3, 7), (4, 8)])
def test_F1_game_ends_when_goal_markers_reach_threshold(players, threshold):
    markers = goal_setup(players, threshold - 1)
    markers[0]["blue"] = 4
    state = make_state(players=players, markers=markers, dice=["blue"] * 3 + ["pink"] * 2)
    state, events = apply(state, 0, {"action": "move", "color": "blue"}, ScriptedChance())
    assert events[-1] == {
        "type": "game_ended",
        "reason": "goal_markers",
        "ended_by": "goal_markers",
        "goal_markers": threshold,
    }
    assert RULES.phase(state) == "finished" and RULES.to_move(state) is None
    assert RULES.legal_moves(state, 0) == []
    with pytest.raises(GameOver):
        RULES.decide(state, 1, {"action": "keep"}, ScriptedChance())


@pytest.mark.parametrize(("players", "threshold"), [(2, 5), (3, 7), (4, 8)])
def test_F1_one_goal_marker_short_of_threshold_goes_on(players, threshold):
    markers = goal_setup(players, threshold - 2)
    markers[0]["blue"] = 4
    state = make_state(players=players, markers=markers, dice=["blue"] * 3 + ["pink"] * 2)
    state, events = apply(state, 0, {"action": "move", "color": "blue"}, ScriptedChance(NEXT))
    assert "game_ended" not in [e["type"] for e in events]
    assert RULES.phase(state) == "active" and state.to_move == 1


def test_F1_moving_within_goal_zone_does_not_count_twice():
    markers = goal_setup(2, 3)
    markers[0]["blue"] = 7
    state = make_state(markers=markers, dice=["blue"] + ["pink"] * 4)
    state, _ = apply(state, 0, {"action": "move", "color": "blue"}, ScriptedChance(NEXT))
    assert RULES.phase(state) == "active"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_F1_player_with_all_four_markers_in_goal_ends_game(players):
    markers = {0: {"brown": 9, "yellow": 8, "pink": 7, "blue": 5}}
    state = make_state(players=players, markers=markers, dice=["blue"] * 2 + ["pink"] * 3)
    state, events = apply(state, 0, {"action": "move", "color": "blue"}, ScriptedChance())
    assert events[-1]["type"] == "game_ended"
    assert events[-1]["reason"] == "all_markers_in_goal"
    assert state.step == FINISHED


def test_F1_all_four_in_goal_alone_ends_a_four_player_game_below_threshold():
    markers = {0: {"brown": 9, "yellow": 8, "pink": 7, "blue": 5}, 1: {"green": 3}}
    state = make_state(players=4, markers=markers, dice=["blue"] * 2 + ["pink"] * 3)
    _, events = apply(state, 0, {"action": "move", "color": "blue"}, ScriptedChance())
    assert events[-1] == {
        "type": "game_ended",
        "reason": "all_markers_in_goal",
        "ended_by": "all_markers_in_goal",
        "goal_markers": 4,
    }


def test_F1_bonus_of_the_ending_field_is_not_used():
    # brown 7 is a kobold and in the goal zone: the game ends, no extra turn, no roll
    markers = {0: {"yellow": 8, "pink": 8, "brown": 4}, 1: {"yellow": 8, "pink": 8}}
    state = make_state(markers=markers, dice=["brown"] * 3 + ["pink"] * 2)
    chance = ScriptedChance()
    state, events = apply(state, 0, {"action": "move", "color": "brown"}, chance)
    assert [e["type"] for e in events] == ["marker_moved", "game_ended"]
    assert chance.labels == []


def test_F1_clover_move_can_end_the_game_too():
    markers = goal_setup(2, 4)
    markers[0]["green"] = 6
    state = make_state(markers=markers, step="clover")
    state, events = apply(state, 0, {"action": "clover", "color": "green"}, ScriptedChance())
    assert events[-1]["type"] == "game_ended" and RULES.phase(state) == "finished"


def test_F1_below_threshold_the_goal_kobold_is_used():
    state = make_state(markers={0: {"brown": 4}}, dice=["brown"] * 3 + ["pink"] * 2)
    _, events = apply(state, 0, {"action": "move", "color": "brown"}, ScriptedChance(NEXT))
    assert [e["type"] for e in events] == ["marker_moved", "kobold_gained", "dice_rolled"]


@pytest.mark.parametrize(
    ("tiles", "points"),
    [
        *[(0, -10), (1, -4), (2, -3), (3, -2), (4, 1), (5, 2), (6, 3), (7, 6), (8, 7)],
        *[(9, 10), (10, 10), (40, 10)],
    ],
)
def test_F3_tile_table_at_every_boundary(tiles, points):
    assert tile_points(tiles) == points
    state = make_state(tiles={0: tiles})
    assert RULES.view(state, 0)["seats"][0]["score"] == points


@pytest.mark.parametrize(
    ("field", "value"),
    [(0, 0), (1, -4), (2, -3), (3, -2), (4, 1), (5, 2), (6, 3), (7, 6), (8, 7), (9, 10)],
)
def test_F2_each_marker_scores_its_field_value(field, value):
    markers = {0: {"green": field} if field else {}}
    state = make_state(markers=markers, tiles={0: 4, 1: 4})
    view = RULES.view(state, 0)
    assert view["seats"][0]["score"] == value + 1


def finished(state):
    return state.replace(step=FINISHED, end="goal_markers")


def test_F2_F3_breakdown_and_result_shape():
    markers = {0: {"brown": 9, "blue": 1}, 1: {"pink": 5}}
    state = finished(make_state(markers=markers, tiles={0: 3, 1: 0}))
    result = RULES.result(state)
    assert result["scores"] == [10 - 4 - 2, 2 - 10]
    assert result["winners"] == [0] and result["shared"] is False
    assert result["breakdown"][0] == {
        "seat": 0,
        "paths": {"brown": 10, "yellow": 0, "pink": 0, "green": 0, "blue": -4},
        "tiles": 3,
        "tile_points": -2,
        "total": 4,
    }
    assert RULES.result(make_state()) is None


def test_F4_tied_top_players_all_win():
    markers = {0: {"brown": 9}, 1: {"pink": 9}, 2: {"green": 8}}
    state = finished(make_state(players=3, markers=markers, tiles={0: 4, 1: 4, 2: 5}))
    result = RULES.result(state)
    assert result["scores"] == [11, 11, 9]
    assert result["winners"] == [0, 1] and result["shared"] is True


def test_F4_single_top_player_wins_alone():
    state = finished(make_state(markers={1: {"pink": 9}}, tiles={0: 4, 1: 4}))
    assert RULES.result(state)["winners"] == [1]


def book_markers(values: dict[str, int]) -> dict[str, int]:
    return {color: VALUE_FIELD[value] for color, value in values.items()}


def book_example():
    """The dice rule book's end-of-game example (seeds/001), just before white's last move.
    Seats: white 0, black 1, grey 2, brown 3; white's pink marker moves 1 -> 6 points."""
    markers = {
        0: book_markers({"brown": 2, "yellow": 10, "pink": 1}),
        1: book_markers({"brown": 6, "green": 6, "blue": 6}),
        2: book_markers({"brown": 7, "yellow": 2, "pink": 7}),
        3: book_markers({"brown": 10, "yellow": -3, "pink": 2, "green": 2}),
    }
    tiles = {0: 5, 1: 4, 2: 3, 3: 7}
    return make_state(
        players=4, markers=markers, tiles=tiles, dice=["pink"] * 3 + ["blue", "stone"]
    )


def test_W2_rule_book_end_example_moves_pink_onto_its_clover_worth_6():
    """The one layout fact of the book's text: the pink marker lands on a clover field worth
    6 points, so pink's clover is field 7; the game ends there, so the clover is unused."""
    state, events = apply(book_example(), 0, {"action": "move", "color": "pink"}, ScriptedChance())
    moved = events[0]
    assert (moved["type"], moved["color"], moved["from"], moved["to"]) == (
        "marker_moved",
        "pink",
        4,
        7,
    )
    pink = COLORS.index("pink")
    assert state.board.bonus[pink][7] == "clover"
    assert state.board.values[pink][7] == 6
    assert [field for field, bonus in enumerate(state.board.bonus[pink]) if bonus == "clover"] == [
        7
    ]
    assert [event["type"] for event in events] == ["marker_moved", "game_ended"]  # F1


def test_F1_F2_F3_F4_rule_book_worked_example():
    """The dice rule book (seeds/001): white ends the game with pink and has 20 points;
    black 19, grey 14, brown 17."""
    state = book_example()
    assert RULES.view(state, 0)["goal_markers"] == 7
    state, events = apply(state, 0, {"action": "move", "color": "pink"}, ScriptedChance())
    assert events[-1] == {
        "type": "game_ended",
        "reason": "goal_markers",
        "ended_by": "goal_markers",
        "goal_markers": 8,
    }
    result = RULES.result(state)
    assert result["scores"] == [20, 19, 14, 17]
    assert result["winners"] == [0] and not result["shared"]
    assert result["breakdown"][0]["paths"] == {
        "brown": 2,
        "yellow": 10,
        "pink": 6,
        "green": 0,
        "blue": 0,
    }
    assert [part["tile_points"] for part in result["breakdown"]] == [2, 1, -2, 6]
