"""domain.playout: whole games with bots, for any GameRules."""

from __future__ import annotations

import hashlib
import importlib

import pytest

from domain.card import RULES as CARD
from domain.playout import PlayoutError, play_game

SEED = hashlib.sha256(b"playout").digest()


def _dice_rules():
    try:
        return importlib.import_module("domain.dice").RULES
    except Exception as error:  # the dice game is built by someone else in parallel
        pytest.skip(f"keltis-dice not importable yet: {error}")


def test_playout_is_deterministic_and_finishes():
    first = play_game(CARD, ["greedy", "random"], SEED, 7)
    second = play_game(CARD, ["greedy", "random"], SEED, 7)
    assert first.events == second.events
    assert CARD.phase(first.state) == "finished"
    assert first.result == CARD.result(first.state)
    assert first.events[-1]["type"] == "game_ended"
    assert first.steps > 20


def test_playout_bot_seed_changes_only_the_bots_choices():
    first = play_game(CARD, ["random", "random"], SEED, 1)
    second = play_game(CARD, ["random", "random"], SEED, 2)
    assert first.events[:3] == second.events[:3]
    assert first.events != second.events


def test_playout_bots_see_only_their_own_view():
    seen = []

    def spy(view, moves, rng):
        seen.append(view)
        return moves[0]

    play_game(CARD, [spy, "random", "random"], SEED, 3)
    active = [view for view in seen if view["phase"] != "finished"]
    assert active and all(view["viewer"] == 0 and "hands" not in view for view in active)
    assert all("deck" not in view and "removed" not in view for view in active)


def test_playout_unknown_bot_and_step_limit():
    with pytest.raises(PlayoutError):
        play_game(CARD, ["greedy", "nobody"], SEED, 1)
    with pytest.raises(PlayoutError):
        play_game(CARD, ["random", "random"], SEED, 1, max_steps=5)


def test_playout_on_step_sees_every_command():
    calls = []
    playout = play_game(CARD, ["random"] * 4, SEED, 5, on_step=lambda *args: calls.append(args))
    assert len(calls) == playout.steps
    assert sum(len(events) for _, _, events in calls) == len(playout.events) - 5


def test_playout_is_generic_over_keltis_dice():
    dice = _dice_rules()
    playout = play_game(dice, ["greedy", "random"], SEED, 9)
    assert dice.phase(playout.state) == "finished"
    assert playout.result is not None
