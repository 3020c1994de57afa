"""D1-D2, E1-E3: the draw step and the end of the game."""

from __future__ import annotations

import pytest

from domain.card import RULES
from domain.errors import IllegalMove
from tests.domain.card.positions import DRAW, FINAL_ROUND, position
from tests.domain.card.support import moves, play

DECK = {"action": "draw", "source": "deck"}


def _draw(source: str) -> dict:
    return {"action": "draw", "source": source}


def test_D1_draw_from_deck_or_any_pile_top():
    state = position(
        hands={0: ["blue-7"]},
        piles={"pink": ["pink-1", "pink-4"], "point": ["point-2"]},
        deck=["green-9", "green-8"],
    )
    _, state = play(state, 0, {"action": "discard", "card": "blue-7"})
    assert sorted(m["source"] for m in moves(state)) == ["deck", "pink", "point"]
    events, after = play(state, 0, _draw("pink"))
    assert events == [{"type": "card_drawn", "seat": 0, "source": "pink", "card": "pink-4"}]
    assert RULES.view(after, 0)["hand"] == ["pink-4"]
    assert after.to_move == 1 and RULES.view(after, 1)["step"] == "play"
    events, after = play(state, 0, DECK)
    assert events == [
        {
            "type": "card_drawn",
            "seat": 0,
            "source": "deck",
            "owner": 0,
            "hidden": {"card": "green-9"},
        }
    ]
    assert RULES.view(after, 0)["hand"] == ["green-9"] and after.deck_size == 1


def test_D1_never_draw_the_card_discarded_this_turn():
    state = position(hands={0: ["blue-7"]}, piles={"blue": ["blue-2"]})
    _, state = play(state, 0, {"action": "discard", "card": "blue-7"})
    assert _draw("blue") not in moves(state)
    with pytest.raises(IllegalMove) as error:
        play(state, 0, _draw("blue"))
    assert error.value.rule == "D1"


def test_D1_both_wish_discards_are_banned_for_both_draws():
    state = position(
        hands={0: ["blue-3", "point-3"]},
        piles={"blue": ["blue-9"], "point": ["point-0"], "green": ["green-1", "green-2"]},
        deck=["pink-0", "pink-1", "pink-2"],
    )
    _, state = play(state, 0, {"action": "wish", "cards": ["blue-3", "point-3"]})
    assert sorted(m["source"] for m in moves(state)) == ["deck", "green"]
    _, state = play(state, 0, DECK)
    assert sorted(m["source"] for m in moves(state)) == ["deck", "green"]
    for source in ("blue", "point"):
        with pytest.raises(IllegalMove) as error:
            play(state, 0, _draw(source))
        assert error.value.rule == "D1"


def test_D1_second_draw_may_take_the_card_the_first_uncovered():
    state = position(hands={0: ["blue-3", "pink-3"]}, piles={"green": ["green-1", "green-2"]})
    _, state = play(state, 0, {"action": "wish", "cards": ["blue-3", "pink-3"]})
    _, state = play(state, 0, _draw("green"))
    assert _draw("green") in moves(state)
    events, state = play(state, 0, _draw("green"))
    assert events[0]["card"] == "green-1"
    assert RULES.view(state, 0)["hand"] == ["green-1", "green-2"] and state.to_move == 1


def test_D1_empty_pile_cannot_be_drawn():
    state = position(hands={0: ["blue-7"]}, step=DRAW, draws_owed=1)
    assert [m["source"] for m in moves(state)] == ["deck"]
    with pytest.raises(IllegalMove) as error:
        play(state, 0, _draw("pink"))
    assert error.value.rule == "D1"


def _four_closed(seat_of_fourth: int = 1) -> dict:
    return {
        0: {"brown": ["brown-end"], "yellow": ["yellow-2", "yellow-end", "yellow-end"]},
        seat_of_fourth: {"pink": ["pink-end"], "green": ["green-end"]},
    }


def test_E1_fifth_closed_row_ends_at_once_and_D2_no_draw():
    state = position(players=3, hands={0: ["blue-end", "blue-4"]}, rows=_four_closed())
    assert state.closed_rows == 4
    events, after = play(state, 0, {"action": "lay", "card": "blue-end"})
    assert events[1] == {"type": "final_round_started", "by_seat": 0, "reason": "fifth_row"}
    assert RULES.phase(after) == "final_round"
    assert after.to_move == 1 and after.step == FINAL_ROUND
    assert not any(m["action"] == "draw" for m in moves(after))


def test_E1_two_end_cards_in_one_row_count_once():
    rows = _four_closed()
    rows[0]["yellow"] = ["yellow-2", "yellow-end"]
    state = position(hands={0: ["yellow-end", "blue-4"]}, rows=rows)
    events, after = play(state, 0, {"action": "lay", "card": "yellow-end"})
    assert [e["type"] for e in events] == ["card_laid"]
    assert after.closed_rows == 4 and RULES.phase(after) == "active"
    assert after.step == DRAW


def test_E2_deck_exhausted_on_the_first_of_two_draws():
    state = position(
        hands={0: ["blue-3", "pink-3"]}, piles={"green": ["green-1"]}, deck=["brown-9"]
    )
    _, state = play(state, 0, {"action": "wish", "cards": ["blue-3", "pink-3"]})
    events, after = play(state, 0, DECK)
    assert events[1] == {"type": "final_round_started", "by_seat": 0, "reason": "deck_empty"}
    assert RULES.view(after, 0)["hand"] == ["brown-9"]
    assert after.to_move == 1 and RULES.phase(after) == "final_round"
    assert not any(m["action"] == "draw" for m in moves(after))


def test_E2_last_card_of_a_single_draw_ends_the_game():
    state = position(hands={0: ["blue-3"]}, deck=["brown-9"], step=DRAW, draws_owed=1, to_move=0)
    events, after = play(state, 0, DECK)
    assert events[-1]["reason"] == "deck_empty" and after.deck_size == 0


def test_E3_final_round_order_and_two_card_limit():
    hands = {0: ["blue-5", "blue-6", "blue-7"], 1: ["pink-1"], 2: ["point-3"]}
    rows = {0: {"blue": ["blue-4"]}}
    state = position(players=3, hands=hands, rows=rows, step=FINAL_ROUND, to_move=2, ender=1)
    assert state.to_move == 2
    _, state = play(state, 2, {"action": "lay", "card": "point-3", "row": "point"})
    assert state.to_move == 2
    _, state = play(state, 2, {"action": "stop"})
    assert state.to_move == 0
    _, state = play(state, 0, {"action": "lay", "card": "blue-5"})
    _, state = play(state, 0, {"action": "lay", "card": "blue-6"})
    assert state.to_move == 1, "two cards laid: the turn passes"
    assert RULES.view(state, 0)["hand"] == ["blue-7"]
    assert moves(state) == [{"action": "lay", "card": "pink-1"}, {"action": "stop"}]
    events, state = play(state, 1, {"action": "stop"})
    assert [e["type"] for e in events] == ["player_stopped", "game_ended"]
    assert RULES.phase(state) == "finished" and RULES.to_move(state) is None
    assert events[1]["scores"] == RULES.result(state)["scores"]


@pytest.mark.parametrize(
    "command",
    [
        {"action": "discard", "card": "blue-5"},
        {"action": "wish", "cards": ["blue-5", "pink-5"]},
        {"action": "draw", "source": "deck"},
    ],
)
def test_E3_no_discards_wishes_or_draws_in_the_final_round(command):
    state = position(hands={0: ["blue-5", "pink-5"]}, step=FINAL_ROUND, to_move=0)
    with pytest.raises(IllegalMove) as error:
        play(state, 0, command)
    assert error.value.rule == "E3"
    assert [m["action"] for m in moves(state)] == ["lay", "lay", "stop"]


def test_E3_final_round_lays_follow_P3_and_P4():
    state = position(
        hands={0: ["blue-3", "point-7"]}, rows={0: {"blue": ["blue-4", "blue-5"]}}, step=FINAL_ROUND
    )
    assert moves(state) == [
        {"action": "lay", "card": "point-7", "row": "point"},
        {"action": "stop"},
    ]
    with pytest.raises(IllegalMove) as error:
        play(state, 0, {"action": "lay", "card": "blue-3"})
    assert error.value.rule == "P3"


def test_E3_player_with_empty_hand_may_only_stop():
    state = position(step=FINAL_ROUND, to_move=1, final_left=1, ender=1)
    assert moves(state) == [{"action": "stop"}]
    events, after = play(state, 1, {"action": "stop"})
    assert events[-1]["type"] == "game_ended" and RULES.phase(after) == "finished"
