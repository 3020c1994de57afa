"""A game's state as plain data and back (`state_to_data` / `state_from_data`, used by the
store's snapshots): through JSON, every state of whole games of both games, at every player
count and on both dice boards, comes back the same and plays on the same."""

from __future__ import annotations

import hashlib

import orjson
import pytest

from domain.card import RULES as CARD
from domain.chance import Chance
from domain.dice import RULES as DICE
from domain.playout import play_game

CASES = [(CARD, players, {}) for players in (2, 3, 4)] + [
    (DICE, players, {"board": board}) for players in (2, 4) for board in ("basic", "advanced")
]


def through_json(rules, state):
    return rules.state_from_data(orjson.loads(orjson.dumps(rules.state_to_data(state))))


def states_of(rules, players: int, options: dict, seed: bytes):
    """(state, next event) along a whole game of random bots."""
    played = play_game(rules, ["random"] * players, seed, 3, options)
    opening = len(rules.start(players, rules.normalize_options(options), Chance(seed)))
    state = rules.fold(played.events[:opening])
    for event in played.events[opening:]:
        yield state, event
        state = rules.evolve(state, event)
    yield state, None


@pytest.mark.parametrize(("rules", "players", "options"), CASES)
def test_every_state_of_a_game_comes_back_the_same_through_json(rules, players, options):
    seed = hashlib.sha256(f"{rules.name}{players}{options}".encode()).digest()
    count = 0
    for state, event in states_of(rules, players, options, seed):
        back = through_json(rules, state)
        assert rules.state_to_data(back) == rules.state_to_data(state)
        assert rules.full_view(back) == rules.full_view(state)
        assert rules.to_move(back) == rules.to_move(state)
        assert rules.phase(back) == rules.phase(state)
        for seat in range(players):
            assert rules.legal_moves(back, seat) == rules.legal_moves(state, seat)
            assert rules.view(back, seat) == rules.view(state, seat)
        if event is not None:  # and it plays on the same
            after = rules.evolve(back, event)
            assert rules.state_to_data(after) == rules.state_to_data(rules.evolve(state, event))
        count += 1
    assert count > 30


def plain(value) -> bool:
    if isinstance(value, dict):
        return all(isinstance(k, str) and plain(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return all(plain(item) for item in value)
    return value is None or isinstance(value, (bool, int, str))


@pytest.mark.parametrize(("rules", "players", "options"), CASES)
def test_state_data_holds_only_json_values(rules, players, options):
    seed = hashlib.sha256(b"plain").digest()
    for state, _ in states_of(rules, players, options, seed):
        assert plain(rules.state_to_data(state))
