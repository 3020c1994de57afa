"""keltis-card parts of the `mcts` search: the greedy move on a state (card_policy) and the
rewards of where a rollout stops."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.card.bots import greedy_bot
from domain.card.commands import COMMANDS, legal_options
from domain.card.view import view as view_of
from domain.registry import get_rules
from domain.search import card as card_search
from domain.search.card_policy import greedy_code
from domain.search.card_sim import CardSim
from domain.search.card_tree import GAME as CARD_TREE
from domain.search.card_tree import margin_of
from tests.domain.search.test_mcts import random_position

CARD = get_rules("keltis-card")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 4), st.integers(0, 2**32), st.integers(0, 200), st.integers(0, 2**16))
def test_the_greedy_move_of_a_state_is_greedy_over_the_view(players, seed, steps, rng_seed):
    state = random_position(CARD, players, seed, steps)
    if state.to_move is None:
        return
    moves = list(legal_options(state)[1])
    expected = greedy_bot(view_of(state, state.to_move), moves, random.Random(rng_seed))
    assert COMMANDS[greedy_code(CardSim.of(state), random.Random(rng_seed))] is expected


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 4), st.integers(0, 2**32), st.integers(0, 200))
def test_margins_favour_the_leader_and_rewards_are_in_the_unit_interval(players, seed, steps):
    state = random_position(CARD, players, seed, steps)
    margins = [margin_of(CardSim.of(state), seat) for seat in range(players)]
    values = [card_search.estimate(state, seat) for seat in range(players)]
    leader = max(range(players), key=values.__getitem__)
    assert margins[leader] == max(margins) >= 0.0
    assert sorted(margins)[-2] == -margins[leader]
    finished = CardSim.of(random_position(CARD, players, seed, 2000))
    for seat in range(players):
        reward, margin = CARD_TREE.rollout(finished, None, random.Random(0), seat)
        assert 0.0 <= reward <= 1.0 and margin == margin_of(finished, seat)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 4), st.integers(0, 2**32))
def test_k1_k4_the_estimate_of_a_finished_game_is_its_score(players, seed):
    state = random_position(CARD, players, seed, 2000)
    assert state.to_move is None
    scores = CARD.outcome(state).scores
    assert tuple(card_search.estimate(state, seat) for seat in range(players)) == scores
