"""A turn of keltis-dice: T1 (rolling), T2 (stone tile), T3-T5 (moving), T6 (bonuses)."""

from __future__ import annotations

import pytest

from domain.dice import RULES
from domain.dice.state import CLOVER, MOVE, ROLL
from domain.errors import IllegalMove, NotYourTurn
from tests.domain.dice.helpers import ScriptedChance, apply, make_state

NEXT = ["pink", "pink", "pink", "pink", "pink"]  # a harmless next roll


# ------------------------------------------------------------------- T1


def test_T1_reroll_replaces_only_chosen_dice_and_makes_dice_final():
    state = make_state(dice=["brown", "yellow", "pink", "green", "blue"], step=ROLL, rolls=4)
    chance = ScriptedChance(["stone", "brown"])
    state, events = apply(state, 0, {"action": "reroll", "dice": [3, 1]}, chance)
    assert chance.labels == ["roll:4"]
    assert events == [
        {
            "type": "dice_rerolled",
            "seat": 0,
            "roll": 4,
            "indexes": [1, 3],
            "dice": ["brown", "stone", "pink", "brown", "blue"],
        }
    ]
    assert state.step == MOVE and state.rerolled and state.rolls == 5


def test_T1_only_one_reroll_a_turn():
    state = make_state(step=ROLL)
    state, _ = apply(state, 0, {"action": "reroll", "dice": [0]}, ScriptedChance(["blue"]))
    with pytest.raises(IllegalMove) as raised:
        RULES.decide(state, 0, {"action": "reroll", "dice": [1]}, ScriptedChance())
    assert raised.value.rule == "T1"
    assert all(m["action"] != "reroll" for m in RULES.legal_moves(state, 0))


def test_T1_keep_ends_rolling_stage():
    state = make_state(step=ROLL)
    state, events = apply(state, 0, {"action": "keep"}, ScriptedChance())
    assert events == [{"type": "dice_kept", "seat": 0}]
    assert state.step == MOVE
    with pytest.raises(IllegalMove):
        RULES.decide(state, 0, {"action": "keep"}, ScriptedChance())


@pytest.mark.parametrize(
    "dice",
    [
        *[[], [5], [0, 0], [-1], ["1"], [True], [1.0], [0, 1, 2, 3, 4, 0]],
        *[None, "01", (0, 1), [[1]], [{}], [0, "a"], [None]],
    ],
)
def test_T1_reroll_indexes_must_be_distinct_dice(dice):
    state = make_state(step=ROLL)
    with pytest.raises(IllegalMove) as raised:
        RULES.decide(state, 0, {"action": "reroll", "dice": dice}, ScriptedChance())
    assert raised.value.rule == "T1"


def test_T1_must_keep_or_reroll_before_moving():
    state = make_state(step=ROLL)
    with pytest.raises(IllegalMove):
        RULES.decide(state, 0, {"action": "move", "color": "brown"}, ScriptedChance())
    with pytest.raises(IllegalMove):
        RULES.decide(state, 0, {"action": "pass"}, ScriptedChance())


def test_T1_roll_stage_offers_keep_and_all_31_rerolls():
    moves = RULES.legal_moves(make_state(step=ROLL), 0)
    assert moves[0] == {"action": "keep"}
    rerolls = {tuple(m["dice"]) for m in moves[1:]}
    assert len(moves) == 32 and len(rerolls) == 31


def test_T1_other_seat_may_not_act():
    state = make_state(step=ROLL, to_move=1)
    with pytest.raises(NotYourTurn):
        RULES.decide(state, 0, {"action": "keep"}, ScriptedChance())
    assert RULES.legal_moves(state, 0) == []


# ------------------------------------------------------------------- T2


def test_T2_two_stones_after_keep_take_one_tile():
    state = make_state(step=ROLL, dice=["stone", "stone", "stone", "blue", "blue"])
    state, events = apply(state, 0, {"action": "keep"}, ScriptedChance())
    assert events[-1] == {"type": "tile_taken", "seat": 0, "cause": "stones"}
    assert state.tiles == (1, 0) and state.supply == 39


def test_T2_stones_are_counted_on_the_final_dice_after_reroll():
    state = make_state(step=ROLL, dice=["stone", "stone", "blue", "blue", "blue"])
    state, events = apply(state, 0, {"action": "reroll", "dice": [0]}, ScriptedChance(["blue"]))
    assert [e["type"] for e in events] == ["dice_rerolled"]
    assert state.tiles == (0, 0)
    state = make_state(step=ROLL, dice=["stone", "brown", "blue", "blue", "blue"])
    state, events = apply(state, 0, {"action": "reroll", "dice": [1]}, ScriptedChance(["stone"]))
    assert events[-1]["type"] == "tile_taken" and state.tiles == (1, 0)


def test_T2_one_stone_takes_nothing():
    state = make_state(step=ROLL, dice=["stone", "pink", "pink", "blue", "blue"])
    _, events = apply(state, 0, {"action": "keep"}, ScriptedChance())
    assert [e["type"] for e in events] == ["dice_kept"]


def test_T2_no_tile_when_supply_is_empty():
    state = make_state(step=ROLL, dice=["stone"] * 5, tiles={0: 30, 1: 10}, supply=0)
    state, events = apply(state, 0, {"action": "keep"}, ScriptedChance())
    assert [e["type"] for e in events] == ["dice_kept"]
    assert state.supply == 0 and state.tiles == (30, 10)


# ------------------------------------------------------------------- T3


def test_T3_new_marker_lands_on_field_equal_to_dice_count():
    state = make_state(dice=["green", "green", "green", "yellow", "yellow"])
    state, events = apply(state, 0, {"action": "move", "color": "green"}, ScriptedChance(NEXT))
    assert events[0] == {
        "type": "marker_moved",
        "seat": 0,
        "color": "green",
        "from": 0,
        "to": 3,
        "by": "dice",
    }
    assert state.positions[0] == (0, 0, 0, 3, 0)
    assert state.to_move == 1 and state.step == ROLL


def test_T3_marker_moves_exactly_the_dice_count():
    state = make_state(
        markers={0: {"yellow": 2}}, dice=["yellow", "yellow", "pink", "blue", "blue"]
    )
    state, _ = apply(state, 0, {"action": "move", "color": "yellow"}, ScriptedChance(NEXT))
    assert state.positions[0][1] == 4  # field 4 of yellow is a kobold: same seat again
    state = make_state(markers={0: {"pink": 4}}, dice=["yellow", "yellow", "pink", "blue", "blue"])
    state, _ = apply(state, 0, {"action": "move", "color": "pink"}, ScriptedChance(NEXT))
    assert state.positions[0][2] == 5


@pytest.mark.parametrize("color", ["red", ["blue"], None, 3, {"c": 1}, "Blue"])
def test_T3_unknown_colour_is_an_illegal_move(color):
    state = make_state(dice=["blue"] * 5)
    with pytest.raises(IllegalMove) as raised:
        RULES.decide(state, 0, {"action": "move", "color": color}, ScriptedChance())
    assert raised.value.rule == "T3"


@pytest.mark.parametrize("command", [{"action": ["keep"]}, {"action": None}, {}, [], "keep"])
def test_T1_malformed_commands_are_illegal_moves(command):
    with pytest.raises(IllegalMove):
        RULES.decide(make_state(step=ROLL), 0, command, ScriptedChance())


def test_T3_colour_must_show_on_the_dice():
    state = make_state(dice=["green", "green", "green", "yellow", "stone"])
    with pytest.raises(IllegalMove) as raised:
        RULES.decide(state, 0, {"action": "move", "color": "blue"}, ScriptedChance())
    assert raised.value.rule == "T3"
    colours = {m.get("color") for m in RULES.legal_moves(state, 0)}
    assert colours == {"green", "yellow", None}


def test_T3_pass_is_always_allowed_and_passes_the_turn():
    state = make_state(dice=["green"] * 5)
    state, events = apply(state, 0, {"action": "pass"}, ScriptedChance(NEXT))
    assert events[0] == {"type": "passed", "seat": 0, "stage": "move"}
    assert events[1]["type"] == "dice_rolled" and events[1]["seat"] == 1
    assert state.positions == ((0,) * 5, (0,) * 5)


def test_T3_markers_of_different_players_share_a_field():
    state = make_state(markers={1: {"green": 3}}, dice=["green"] * 3 + ["blue"] * 2)
    state, _ = apply(state, 0, {"action": "move", "color": "green"}, ScriptedChance(NEXT))
    assert state.positions[0][3] == 3 and state.positions[1][3] == 3


def test_T3_W4_one_marker_per_path_and_four_markers_at_most():
    markers = {0: {"brown": 1, "yellow": 1, "pink": 1, "green": 1}}
    state = make_state(markers=markers, dice=["blue", "blue", "brown", "brown", "stone"])
    with pytest.raises(IllegalMove) as raised:
        RULES.decide(state, 0, {"action": "move", "color": "blue"}, ScriptedChance())
    assert raised.value.rule == "W4"
    state, _ = apply(state, 0, {"action": "move", "color": "brown"}, ScriptedChance(NEXT))
    assert state.positions[0] == (3, 1, 1, 1, 0)  # the existing brown marker moved, no second


# ------------------------------------------------------------------- T4


def test_T4_marker_stops_on_field_nine():
    state = make_state(markers={0: {"blue": 6}}, dice=["blue"] * 5)
    state, events = apply(state, 0, {"action": "move", "color": "blue"}, ScriptedChance(NEXT))
    assert events[0]["to"] == 9 and state.positions[0][4] == 9


def test_T4_marker_on_field_nine_never_moves():
    state = make_state(markers={0: {"blue": 9}}, dice=["blue"] * 4 + ["pink"])
    with pytest.raises(IllegalMove) as raised:
        RULES.decide(state, 0, {"action": "move", "color": "blue"}, ScriptedChance())
    assert raised.value.rule == "T4"
    assert {"action": "move", "color": "blue"} not in RULES.legal_moves(state, 0)
    clover = make_state(markers={0: {"blue": 9}}, step=CLOVER)
    with pytest.raises(IllegalMove) as raised:
        RULES.decide(clover, 0, {"action": "clover", "color": "blue"}, ScriptedChance())
    assert raised.value.rule == "T4"


# ------------------------------------------------------------------- T5


def test_T5_move_may_not_end_on_forbidden_field():
    state = make_state(board="advanced", markers={0: {"blue": 3}}, dice=["blue"] * 2 + ["pink"] * 3)
    with pytest.raises(IllegalMove) as raised:
        RULES.decide(state, 0, {"action": "move", "color": "blue"}, ScriptedChance())
    assert raised.value.rule == "T5"  # 3 + 2 = field 5, forbidden on blue
    assert {"action": "move", "color": "blue"} not in RULES.legal_moves(state, 0)
    new_marker = make_state(board="advanced", dice=["green"] * 2 + ["pink"] * 3)
    with pytest.raises(IllegalMove):  # green field 2 is forbidden even for a new marker
        RULES.decide(new_marker, 0, {"action": "move", "color": "green"}, ScriptedChance())


def test_T5_markers_jump_over_forbidden_fields_which_still_count():
    state = make_state(board="advanced", markers={0: {"blue": 4}}, dice=["blue"] * 2 + ["pink"] * 3)
    state, events = apply(state, 0, {"action": "move", "color": "blue"}, ScriptedChance(NEXT))
    assert events[0]["to"] == 6  # over forbidden 5: exactly two fields on


def test_T5_basic_side_has_no_forbidden_fields():
    state = make_state(markers={0: {"blue": 3}}, dice=["blue"] * 2 + ["pink"] * 3)
    state, _ = apply(state, 0, {"action": "move", "color": "blue"}, ScriptedChance(NEXT))
    assert state.positions[0][4] == 5


def test_T5_clover_may_not_end_on_forbidden_field():
    state = make_state(board="advanced", markers={0: {"pink": 2}}, step=CLOVER)
    with pytest.raises(IllegalMove) as raised:
        RULES.decide(state, 0, {"action": "clover", "color": "pink"}, ScriptedChance())
    assert raised.value.rule == "T5"


# ------------------------------------------------------------------- T6


def test_T6_stone_field_takes_a_tile():
    state = make_state(markers={0: {"brown": 3}}, dice=["brown"] * 2 + ["pink"] * 3)
    state, events = apply(state, 0, {"action": "move", "color": "brown"}, ScriptedChance(NEXT))
    assert events[1] == {"type": "tile_taken", "seat": 0, "cause": "stone_field"}
    assert state.tiles == (1, 0) and state.supply == 39 and state.to_move == 1


def test_T6_stone_field_with_empty_supply_takes_nothing():
    state = make_state(
        markers={0: {"brown": 3}}, dice=["brown"] * 2 + ["pink"] * 3, tiles={1: 40}, supply=0
    )
    state, events = apply(state, 0, {"action": "move", "color": "brown"}, ScriptedChance(NEXT))
    assert "tile_taken" not in [e["type"] for e in events] and state.supply == 0


def test_T6_kobold_gives_another_whole_turn():
    state = make_state(markers={0: {"brown": 5}}, dice=["brown"] * 2 + ["pink"] * 3, rolls=7)
    chance = ScriptedChance(NEXT)
    state, events = apply(state, 0, {"action": "move", "color": "brown"}, chance)
    assert [e["type"] for e in events] == ["marker_moved", "kobold_gained", "dice_rolled"]
    assert events[-1]["seat"] == 0 and chance.labels == ["roll:7"]
    assert state.to_move == 0 and state.step == ROLL and not state.rerolled


def test_T6_kobold_chains_over_several_turns():
    # blue 2 is a kobold: enter there, then yellow 4 (kobold) in the extra turn
    state = make_state(dice=["blue"] * 2 + ["pink"] * 3)
    chance = ScriptedChance(["yellow"] * 4 + ["stone"], NEXT)
    state, _ = apply(state, 0, {"action": "move", "color": "blue"}, chance)
    assert state.to_move == 0
    state, _ = apply(state, 0, {"action": "keep"}, chance)
    state, events = apply(state, 0, {"action": "move", "color": "yellow"}, chance)
    assert events[1]["type"] == "kobold_gained" and state.to_move == 0
    assert chance.labels == ["roll:1", "roll:2"]


def test_T6_clover_moves_a_marker_one_field():
    # pink 7 is a clover (W2); then brown 4 -> 5 (stone)
    state = make_state(markers={0: {"pink": 4, "brown": 4}}, dice=["pink"] * 3 + ["blue"] * 2)
    state, events = apply(state, 0, {"action": "move", "color": "pink"}, ScriptedChance())
    assert events[-1] == {"type": "clover_gained", "seat": 0}
    assert state.step == CLOVER and state.to_move == 0
    legal = RULES.legal_moves(state, 0)
    assert {"action": "pass"} in legal and {"action": "clover", "color": "brown"} in legal
    with pytest.raises(IllegalMove):
        RULES.decide(state, 0, {"action": "move", "color": "pink"}, ScriptedChance())
    state, events = apply(state, 0, {"action": "clover", "color": "brown"}, ScriptedChance(NEXT))
    assert events[0] == {
        "type": "marker_moved",
        "seat": 0,
        "color": "brown",
        "from": 4,
        "to": 5,
        "by": "clover",
    }
    assert events[1]["type"] == "tile_taken" and state.tiles == (1, 0)
    assert state.to_move == 1


def test_T6_clover_places_new_marker_on_field_one():
    state = make_state(markers={0: {"green": 5}}, step=CLOVER)
    state, events = apply(state, 0, {"action": "clover", "color": "blue"}, ScriptedChance(NEXT))
    assert events[0]["from"] == 0 and events[0]["to"] == 1
    assert state.positions[0] == (0, 0, 0, 5, 1)


def test_T6_clover_chains_through_further_clovers():
    # yellow 1 -> 2 is a clover again, which moves brown 2 -> 3, a clover once more
    state = make_state(markers={0: {"yellow": 1, "brown": 2}}, step=CLOVER)
    state, events = apply(state, 0, {"action": "clover", "color": "yellow"}, ScriptedChance())
    assert events[-1]["type"] == "clover_gained" and state.step == CLOVER
    state, events = apply(state, 0, {"action": "clover", "color": "brown"}, ScriptedChance())
    assert events[-1]["type"] == "clover_gained" and state.positions[0][:2] == (3, 2)
    state, events = apply(state, 0, {"action": "pass"}, ScriptedChance(NEXT))
    assert events[0] == {"type": "passed", "seat": 0, "stage": "clover"}
    assert state.to_move == 1 and state.step == ROLL


def test_T6_clover_onto_kobold_gives_another_turn():
    state = make_state(markers={0: {"blue": 1}}, step=CLOVER)
    state, events = apply(state, 0, {"action": "clover", "color": "blue"}, ScriptedChance(NEXT))
    assert [e["type"] for e in events] == ["marker_moved", "kobold_gained", "dice_rolled"]
    assert state.to_move == 0


def test_T6_clover_without_legal_target_is_skipped():
    # advanced side: brown 1 -> 3 (clover), brown 4 is forbidden, the other three markers
    # are on field 9 and no marker is left for a new path
    markers = {0: {"brown": 1, "yellow": 9, "green": 9, "pink": 9}}
    state = make_state(
        players=4, board="advanced", markers=markers, dice=["brown"] * 2 + ["stone"] * 3
    )
    state, events = apply(state, 0, {"action": "move", "color": "brown"}, ScriptedChance(NEXT))
    assert [e["type"] for e in events] == ["marker_moved", "dice_rolled"]
    assert state.to_move == 1
