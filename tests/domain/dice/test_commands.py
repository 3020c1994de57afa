"""T1/T3: the legal moves are shared read-only values that behave as plain JSON dicts."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from domain.dice import RULES
from domain.dice.state import ROLL
from tests.domain.dice.helpers import make_state


def test_T1_legal_moves_are_read_only_json_dicts():
    moves = RULES.legal_moves(make_state(step=ROLL), 0)
    reroll = moves[-1]
    assert reroll == {"action": "reroll", "dice": [0, 1, 2, 3, 4]}
    assert json.loads(json.dumps(moves)) == moves
    with pytest.raises(TypeError):
        reroll["dice"] = [0]
    with pytest.raises(TypeError):
        reroll["dice"].append(1)
    with pytest.raises(TypeError):
        reroll.update(action="keep")
    assert RULES.legal_moves(make_state(step=ROLL), 0)[-1] == reroll


def test_T1_copies_of_legal_moves_are_plain_and_editable():
    reroll = RULES.legal_moves(make_state(step=ROLL), 0)[-1]
    for duplicate in (dict(reroll), copy.copy(reroll), copy.deepcopy(reroll)):
        duplicate["seat"] = 0
        assert "seat" not in reroll
    clone = pickle.loads(pickle.dumps(reroll))
    assert type(clone) is dict and clone == reroll
    deep = copy.deepcopy(reroll)
    deep["dice"].append(9)
    assert reroll["dice"] == [0, 1, 2, 3, 4]


def test_T3_list_returned_by_legal_moves_is_the_callers_own():
    state = make_state(step=ROLL)
    first = RULES.legal_moves(state, 0)
    first.clear()
    assert len(RULES.legal_moves(state, 0)) == 32
