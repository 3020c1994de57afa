"""The shared game interface: `Phase`, the `Outcome` value (K4, F4) and both games' adapters."""

from __future__ import annotations

import json

import pytest

from domain import game
from domain.chance import Chance
from domain.game import Outcome, Phase
from domain.playout import play_game
from domain.registry import game_names, get_rules


def test_phase_constants_keep_their_strings():
    assert (game.ACTIVE, game.FINAL_ROUND, game.FINISHED) == ("active", "final_round", "finished")
    assert [str(phase) for phase in Phase] == ["active", "final_round", "finished"]


def test_K4_F4_outcome_all_tied_top_seats_win():
    parts = [{"total": 7}, {"total": 9}, {"total": 9}]
    outcome = Outcome.of(parts)
    assert (outcome.scores, outcome.winners, outcome.shared) == ((7, 9, 9), (1, 2), True)
    alone = Outcome.of([{"total": -3}, {"total": -4}])
    assert (alone.winners, alone.shared) == ((0,), False)


def test_outcome_dict_is_json_ready_and_the_callers_own():
    outcome = Outcome.of([{"total": 1, "paths": {"blue": 1}}, {"total": 0, "paths": {}}])
    first = outcome.to_dict()
    assert json.loads(json.dumps(first)) == first
    first["breakdown"][0]["paths"]["blue"] = 99
    first["winners"].append(1)
    assert outcome.to_dict() == {
        "scores": [1, 0],
        "winners": [0],
        "shared": False,
        "breakdown": [{"total": 1, "paths": {"blue": 1}}, {"total": 0, "paths": {}}],
        "ended_by": None,
    }


@pytest.mark.parametrize("name", game_names())
def test_K4_F4_result_is_the_outcome_of_a_finished_game(name):
    rules = get_rules(name)
    playout = play_game(rules, ["random", "random"], bytes(range(32)), bot_seed=3)
    state = playout.state
    assert rules.phase(state) is Phase.FINISHED
    outcome = rules.outcome(state)
    assert rules.result(state) == outcome.to_dict() == playout.result
    assert list(outcome.scores) == [part["total"] for part in outcome.breakdown]
    ended = playout.events[-1]
    assert ended["type"] == "game_ended"
    assert rules.view(state, 0)["result"] == outcome.to_dict()


@pytest.mark.parametrize("name", game_names())
def test_no_outcome_before_the_end(name):
    rules = get_rules(name)
    state = rules.fold(rules.start(2, {}, Chance(bytes(32))))
    assert rules.phase(state) is Phase.ACTIVE
    assert rules.outcome(state) is None and rules.result(state) is None
