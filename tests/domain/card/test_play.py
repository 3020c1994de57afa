"""P1-P4: the play step (discard, wish, lay colour cards, lay point cards)."""

from __future__ import annotations

import pytest

from domain.card import RULES
from domain.errors import GameOver, IllegalMove, NotYourTurn
from tests.domain.card.positions import DRAW, FINISHED, PLAY, position
from tests.domain.card.support import moves, play


def _illegal(state, command, seat: int = 0) -> IllegalMove:
    with pytest.raises(IllegalMove) as error:
        play(state, seat, command)
    assert command not in moves(state)
    return error.value


def test_P1_discard_goes_face_up_on_its_pile_and_a_draw_is_owed():
    state = position(hands={0: ["blue-7", "point-5"]}, piles={"blue": ["blue-2"]})
    events, after = play(state, 0, {"action": "discard", "card": "blue-7"})
    assert events == [{"type": "card_discarded", "seat": 0, "card": "blue-7", "pile": "blue"}]
    view = RULES.view(after, 1)
    assert view["piles"]["blue"] == ["blue-2", "blue-7"]
    assert view["pile_tops"]["blue"] == "blue-7"
    assert (view["step"], view["draws_owed"], view["to_move"]) == ("draw", 1, 0)
    _, after = play(state, 0, {"action": "discard", "card": "point-5"})
    assert RULES.view(after, 1)["piles"]["point"] == ["point-5"]


def test_P1_discard_of_a_card_not_in_hand():
    state = position(hands={0: ["blue-7"]})
    assert _illegal(state, {"action": "discard", "card": "blue-8"}).rule == "P1"


def test_P2_wish_with_a_colour_card_and_a_point_card():
    state = position(hands={0: ["blue-3", "point-3", "pink-8"]})
    command = {"action": "wish", "cards": ["blue-3", "point-3"]}
    assert command in moves(state)
    events, after = play(state, 0, command)
    assert events == [
        {"type": "stone_wished", "seat": 0, "cards": ["blue-3", "point-3"], "stone": 3}
    ]
    view = RULES.view(after, 0)
    assert 3 not in view["stones_on_table"]
    assert view["seats"][0]["stones"] == [3]
    assert view["piles"]["blue"] == ["blue-3"] and view["piles"]["point"] == ["point-3"]
    assert view["hand"] == ["pink-8"]
    assert (view["step"], view["draws_owed"]) == ("draw", 2)


def test_P2_wish_cards_in_either_order_and_identical_twins():
    state = position(hands={0: ["blue-5", "blue-5", "green-5"]})
    wishes = [m["cards"] for m in moves(state) if m["action"] == "wish"]
    assert sorted(map(sorted, wishes)) == [["blue-5", "blue-5"], ["blue-5", "green-5"]]
    _, after = play(state, 0, {"action": "wish", "cards": ["blue-5", "green-5"]})
    assert RULES.view(after, 0)["seats"][0]["stones"] == [5]


def test_P2_wish_for_a_stone_already_taken():
    state = position(hands={0: ["blue-3", "point-3"]}, stones_taken={1: [3]})
    error = _illegal(state, {"action": "wish", "cards": ["blue-3", "point-3"]})
    assert error.rule == "P2"


@pytest.mark.parametrize(
    "cards",
    [["blue-0", "pink-0"], ["blue-10", "point-10"], ["blue-3", "pink-4"], ["blue-end", "pink-end"]],
)
def test_P2_wish_needs_equal_values_with_a_stone(cards):
    state = position(hands={0: [*cards, "green-7"]})
    assert _illegal(state, {"action": "wish", "cards": cards}).rule == "P2"


def test_P2_wish_needs_both_cards_in_hand():
    state = position(hands={0: ["blue-3", "pink-9"]})
    assert _illegal(state, {"action": "wish", "cards": ["blue-3", "blue-3"]}).rule == "P2"


def test_P3_number_card_starts_an_empty_row():
    state = position(hands={0: ["blue-7"]})
    events, after = play(state, 0, {"action": "lay", "card": "blue-7"})
    assert events == [{"type": "card_laid", "seat": 0, "card": "blue-7", "row": "blue"}]
    row = RULES.view(after, 1)["seats"][0]["rows"]["blue"]
    assert row == {"cards": ["blue-7"], "direction": None, "closed": False}
    _, again = play(state, 0, {"action": "lay", "card": "blue-7", "row": "blue"})
    assert RULES.full_view(again) == RULES.full_view(after)


def test_P3_colour_card_on_another_colours_row():
    state = position(hands={0: ["blue-7"]})
    assert _illegal(state, {"action": "lay", "card": "blue-7", "row": "pink"}).rule == "P3"


def test_P3_end_card_on_an_empty_row():
    state = position(hands={0: ["blue-end"]})
    _, after = play(state, 0, {"action": "lay", "card": "blue-end"})
    row = RULES.view(after, 0)["seats"][0]["rows"]["blue"]
    assert row == {"cards": ["blue-end"], "direction": None, "closed": True}
    assert after.closed_rows == 1


def test_P3_second_end_card_on_a_closed_row():
    state = position(hands={0: ["blue-end", "blue-4"]}, rows={0: {"blue": ["blue-2", "blue-end"]}})
    assert {"action": "lay", "card": "blue-end"} in moves(state)
    _, after = play(state, 0, {"action": "lay", "card": "blue-end"})
    assert RULES.view(after, 0)["seats"][0]["rows"]["blue"]["cards"] == [
        "blue-2",
        "blue-end",
        "blue-end",
    ]
    assert after.closed_rows == 1


def test_P3_no_number_after_an_end_card():
    state = position(hands={0: ["blue-4", "blue-2"]}, rows={0: {"blue": ["blue-2", "blue-end"]}})
    error = _illegal(state, {"action": "lay", "card": "blue-4"})
    assert error.rule == "P3" and "closed" in error.message
    assert _illegal(state, {"action": "lay", "card": "blue-2"}).rule == "P3"


def test_P3_direction_fixed_by_first_differing_value():
    state = position(
        hands={0: ["blue-4", "blue-9", "blue-5"]}, rows={0: {"blue": ["blue-5", "blue-5"]}}
    )
    lays = {m["card"] for m in moves(state) if m["action"] == "lay"}
    assert lays == {"blue-4", "blue-9", "blue-5"}
    _, after = play(state, 0, {"action": "lay", "card": "blue-9"})
    assert RULES.view(after, 0)["seats"][0]["rows"]["blue"]["direction"] == "ascending"
    after.step, after.to_move, after._legal = PLAY, 0, None  # back to a play step
    assert _illegal(after, {"action": "lay", "card": "blue-4"}).rule == "P3"
    assert _illegal(after, {"action": "lay", "card": "blue-5"}).rule == "P3"


def test_P3_descending_row_takes_equal_or_lower_values():
    state = position(
        hands={0: ["green-4", "green-3", "green-5"]}, rows={0: {"green": ["green-7", "green-4"]}}
    )
    lays = {m["card"] for m in moves(state) if m["action"] == "lay"}
    assert lays == {"green-4", "green-3"}
    assert _illegal(state, {"action": "lay", "card": "green-5"}).rule == "P3"


@pytest.mark.parametrize(
    "values", [[0, 5, 5, 5, 6, 7, 9, 10], [7, 7, 4, 4, 3, 1]], ids=["ascending", "descending"]
)
def test_P3_rule_book_examples_are_valid_rows(values):
    cards = [f"pink-{v}" for v in values]
    state = position(hands={0: cards}, deck=["blue-0"] * 20)
    for card in cards:
        _, state = play(state, 0, {"action": "lay", "card": card})
        state.step, state.to_move, state._legal = PLAY, 0, None
    assert RULES.view(state, 0)["seats"][0]["rows"]["pink"]["cards"] == cards


def test_P4_point_card_on_a_colour_row_of_the_same_value():
    state = position(hands={0: ["point-6"]}, rows={0: {"blue": ["blue-3", "blue-6"]}})
    command = {"action": "lay", "card": "point-6", "row": "blue"}
    assert command in moves(state)
    _, after = play(state, 0, command)
    row = RULES.view(after, 0)["seats"][0]["rows"]["blue"]
    assert row["cards"] == ["blue-3", "blue-6", "point-6"]
    assert row["direction"] == "ascending"


def test_P4_point_card_not_on_a_mismatched_value():
    state = position(hands={0: ["point-5"]}, rows={0: {"blue": ["blue-3", "blue-6"]}})
    assert _illegal(state, {"action": "lay", "card": "point-5", "row": "blue"}).rule == "P4"


def test_P4_point_card_not_on_a_closed_row():
    state = position(hands={0: ["point-6"]}, rows={0: {"blue": ["blue-6", "blue-end"]}})
    assert _illegal(state, {"action": "lay", "card": "point-6", "row": "blue"}).rule == "P4"


def test_P4_point_card_not_on_an_empty_row():
    state = position(hands={0: ["point-6"]})
    assert _illegal(state, {"action": "lay", "card": "point-6", "row": "pink"}).rule == "P4"


def test_P4_point_row_takes_any_value_in_any_order():
    state = position(hands={0: ["point-9", "point-2", "point-5"]}, deck=["blue-0"] * 10)
    for card in ("point-9", "point-2", "point-5"):
        assert {"action": "lay", "card": card, "row": "point"} in moves(state)
        _, state = play(state, 0, {"action": "lay", "card": card, "row": "point"})
        state.step, state.to_move, state._legal = PLAY, 0, None
    assert RULES.view(state, 0)["seats"][0]["point_row"] == ["point-9", "point-2", "point-5"]


def test_P4_point_card_needs_a_row():
    state = position(hands={0: ["point-6"]})
    assert _illegal(state, {"action": "lay", "card": "point-6"}).rule == "P4"


def test_S2_only_the_seat_to_move_may_act():
    state = position(hands={0: ["blue-7"], 1: ["pink-7"]})
    with pytest.raises(NotYourTurn):
        play(state, 1, {"action": "discard", "card": "pink-7"})
    assert RULES.legal_moves(state, 1) == []


@pytest.mark.parametrize(
    "command",
    [
        {"action": "fly"},
        {"card": "blue-7"},
        "discard",
        {"action": "discard", "card": "blue-7", "extra": 1},
        {"action": "wish", "cards": ["blue-7"]},
        {"action": "draw", "source": "sky"},
    ],
)
def test_malformed_commands_are_illegal_moves(command):
    state = position(hands={0: ["blue-7"]})
    with pytest.raises(IllegalMove):
        play(state, 0, command)


def test_P1_play_step_comes_before_any_draw():
    state = position(hands={0: ["blue-7"]})
    assert _illegal(state, {"action": "draw", "source": "deck"}).rule == "P1"
    after = position(hands={0: ["blue-7"]}, step=DRAW, draws_owed=1)
    assert _illegal(after, {"action": "discard", "card": "blue-7"}).rule == "D1"


def test_legal_moves_are_read_only_and_json_ready():
    import json

    state = position(hands={0: ["blue-7"]})
    move = RULES.legal_moves(state, 0)[0]
    with pytest.raises(TypeError):
        move["card"] = "blue-8"
    assert json.loads(json.dumps(move)) == dict(move)


def test_game_over_refuses_commands():
    state = position(hands={0: ["blue-7"]})
    state.step, state.to_move = FINISHED, None
    with pytest.raises(GameOver):
        play(state, 0, {"action": "stop"})
