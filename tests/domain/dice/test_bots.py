"""The keltis-dice bots: legal choices, and greedy clearly stronger than random."""

from __future__ import annotations

import random

import pytest

from domain.chance import Chance
from domain.dice import RULES
from domain.dice.state import ROLL
from domain.levels import level_names
from tests.domain.dice.helpers import make_state


def duel(seed: int, seats: list[str], board: str = "basic") -> dict:
    chance = Chance(seed.to_bytes(32, "big"))
    rng = random.Random(seed)
    state = RULES.fold(RULES.start(len(seats), {"board": board}, chance))
    while RULES.phase(state) != "finished":
        seat = RULES.to_move(state)
        legal = RULES.legal_moves(state, seat)
        move = RULES.bots[seats[seat]](RULES.view(state, seat), legal, rng)
        assert move in legal or (
            move["action"] == "reroll" and sorted(move["dice"]) == move["dice"]
        )
        for event in RULES.decide(state, seat, move, chance):
            state = RULES.evolve(state, event)
    return RULES.result(state)


def test_bots_registered():
    assert set(RULES.bots) == {"random", "greedy", "mcts", *level_names()}  # levels: their recipes


def test_greedy_beats_random_in_most_two_player_games():
    wins = 0
    games = 40
    for seed in range(games):
        greedy_seat = seed % 2
        seats = ["random", "random"]
        seats[greedy_seat] = "greedy"
        result = duel(seed, seats)
        wins += result["winners"] == [greedy_seat]
    assert wins >= 0.8 * games


def test_greedy_plays_legal_games_for_three_and_four_players_on_advanced_side():
    for players in (3, 4):
        result = duel(players, ["greedy"] * players, board="advanced")
        assert len(result["scores"]) == players


def test_greedy_keeps_a_strong_roll_and_rerolls_a_weak_one():
    strong = make_state(markers={0: {"blue": 4}}, dice=["blue"] * 5, step=ROLL)
    legal = RULES.legal_moves(strong, 0)
    assert RULES.bots["greedy"](RULES.view(strong, 0), legal, random.Random(0)) == {
        "action": "keep"
    }
    weak = make_state(
        markers={0: {"blue": 6}}, dice=["brown", "yellow", "pink", "green", "blue"], step=ROLL
    )
    move = RULES.bots["greedy"](RULES.view(weak, 0), RULES.legal_moves(weak, 0), random.Random(0))
    assert move["action"] == "reroll" and 4 not in move["dice"]


def test_greedy_avoids_starting_a_weak_path_late():
    markers = {0: {"brown": 8, "yellow": 8}, 1: {"pink": 8, "green": 5}}
    state = make_state(markers=markers, dice=["blue", "stone", "stone", "stone", "stone"])
    move = RULES.bots["greedy"](RULES.view(state, 0), RULES.legal_moves(state, 0), random.Random(0))
    assert move == {"action": "pass"}


def test_registry_and_shared_playout_run_a_dice_game():
    from domain.registry import get_rules

    assert get_rules("keltis-dice") is RULES
    playout = pytest.importorskip("domain.playout")
    game = playout.play_game(RULES, ["greedy", "random", "greedy"], bytes(32), bot_seed=7)
    assert game.result["scores"] == [part["total"] for part in game.result["breakdown"]]
    assert RULES.fold(game.events) == game.state
