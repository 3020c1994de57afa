"""The keltis-card bots: pure policies over one seat's view."""

from __future__ import annotations

import hashlib
import random

from domain.card import RULES
from domain.playout import play_game
from tests.domain.card.positions import FINAL_ROUND, position

GAMES = 200


def test_greedy_beats_random_in_at_least_90_percent_of_two_player_games():
    wins = 0
    for game in range(GAMES):
        greedy_seat = game % 2
        bots = ["greedy", "random"] if greedy_seat == 0 else ["random", "greedy"]
        seed = hashlib.sha256(f"bots-{game}".encode()).digest()
        result = play_game(RULES, bots, seed, game).result
        wins += result["winners"] == [greedy_seat]
    assert wins / GAMES >= 0.9


def test_bots_return_one_of_the_legal_moves():
    state = position(hands={0: ["blue-3", "point-3", "pink-8", "blue-end"]})
    legal = RULES.legal_moves(state, 0)
    for name, bot in RULES.bots.items():
        for seed in range(5):
            assert bot(RULES.view(state, 0), legal, random.Random(seed)) in legal, name


def test_greedy_lays_a_point_card_on_a_matching_row():
    state = position(
        hands={0: ["point-6", "yellow-0", "pink-9"]}, rows={0: {"blue": ["blue-3", "blue-6"]}}
    )
    move = RULES.bots["greedy"](RULES.view(state, 0), RULES.legal_moves(state, 0), random.Random(1))
    assert move == {"action": "lay", "card": "point-6", "row": "blue"}


def test_greedy_stops_in_the_final_round_when_nothing_scores():
    state = position(hands={0: ["blue-3"]}, step=FINAL_ROUND)
    move = RULES.bots["greedy"](RULES.view(state, 0), RULES.legal_moves(state, 0), random.Random(1))
    assert move == {"action": "stop"}
