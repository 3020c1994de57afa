"""K1-K4: scoring and winners."""

from __future__ import annotations

import pytest

from domain.card import RULES
from domain.card.scoring import row_points, stone_points
from tests.domain.card.positions import FINISHED, position

K1_TABLE = [
    (0, 0),
    (1, -4),
    (2, -3),
    (3, -2),
    (4, 1),
    (5, 2),
    (6, 3),
    (7, 6),
    (8, 7),
    (9, 10),
    (10, 10),
    (12, 10),
]
K3_TABLE = [(0, -4), (1, -1), (2, 0), (3, 4), (4, 6), (5, 10), (6, 10), (9, 10)]
ASCENDING = ["0", "1", "2", "3", "3", "4", "4", "5", "5", "6", "6", "7", "7"]


def _finished(**kwargs):
    state = position(**kwargs)
    state.step, state.to_move = FINISHED, None
    return state


@pytest.mark.parametrize(("cards", "points"), K1_TABLE)
def test_K1_colour_row_by_number_of_cards(cards, points):
    assert row_points(cards) == points
    row = [f"green-{v}" for v in ASCENDING[:cards]]
    state = _finished(rows={0: {"green": row}}, stones_taken={0: [1, 2]})
    result = RULES.result(state)
    assert result["breakdown"][0]["rows"]["green"] == points
    assert result["scores"][0] == points


def test_K1_point_and_end_cards_count_as_cards_of_the_row():
    row = ["blue-2", "point-2", "blue-5", "blue-end"]
    state = _finished(rows={0: {"blue": row}}, stones_taken={0: [1, 2]})
    assert RULES.result(state)["breakdown"][0]["rows"]["blue"] == 1


def test_K2_each_point_row_card_is_one_point():
    state = _finished(
        rows={0: {"point": ["point-9", "point-0", "point-4"]}}, stones_taken={0: [1, 2]}
    )
    result = RULES.result(state)
    assert result["breakdown"][0]["point_row"] == 3 and result["scores"][0] == 3


@pytest.mark.parametrize(("stones", "points"), K3_TABLE)
def test_K3_wishing_stones_held(stones, points):
    assert stone_points(stones) == points
    state = _finished(stones_taken={1: list(range(1, stones + 1))})
    result = RULES.result(state)
    assert result["breakdown"][1]["stones"] == list(range(1, stones + 1))
    assert result["breakdown"][1]["stone_points"] == points == result["scores"][1]


def test_K4_highest_total_wins():
    state = _finished(players=3, rows={2: {"point": ["point-1"]}}, stones_taken={2: [1, 2]})
    result = RULES.result(state)
    assert result["scores"] == [-4, -4, 1]
    assert result["winners"] == [2] and result["shared"] is False


def test_K4_tied_players_all_win():
    state = _finished(players=4, stones_taken={1: [1, 2], 3: [3, 4]})
    result = RULES.result(state)
    assert result["scores"] == [-4, 0, -4, 0]
    assert result["winners"] == [1, 3] and result["shared"] is True


def test_K4_no_result_before_the_end():
    assert RULES.result(position()) is None
