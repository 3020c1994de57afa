"""The search's greedy on its fast keltis-card position is the greedy bot: the same legal
moves in the same order, the same scores bit for bit, the same move for the same rng; and
the tree's rollout on it ends where a rollout through the game's rules ends."""

from __future__ import annotations

import random
from math import exp

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.card.bots import greedy_bot, greedy_scores
from domain.card.commands import legal_options
from domain.card.state import FINISHED
from domain.endless import IDLE_TURNS
from domain.registry import get_rules
from domain.search import card as card_search
from domain.search.card_policy import greedy_code, options
from domain.search.card_sim import IDLE_COST, CardSim
from domain.search.card_sim import estimate as card_sim_estimate
from domain.search.card_tree import GAME as CARD_TREE
from domain.search.card_tree import MARGIN_SCALE, ROLLOUT_TURNS
from tests.domain.search.test_card_sim import fields, positions, sim_fields
from tests.domain.search.test_mcts import random_position

CARD = get_rules("keltis-card")


def check_policy(state, rng_seed: int) -> None:
    """Codes, scores, ranking and move of the position against the greedy bot's view."""
    sim = CardSim.of(state)
    codes, scores = options(sim)
    expected_codes, moves = legal_options(state)
    assert codes == list(expected_codes)
    view = CARD.view(state, state.to_move)
    assert scores == greedy_scores(view, list(moves))
    order = sorted(range(len(moves)), key=lambda i: -scores[i])
    assert CARD_TREE.ranked(sim, None) == [moves[i] for i in order]
    ours, theirs = random.Random(rng_seed), random.Random(rng_seed)
    assert greedy_code(sim, ours) == greedy_bot(view, list(moves), theirs).code
    if len(moves) > 1:  # a single move draws nothing (greedy_bot draws once)
        assert ours.random() == theirs.random()  # as many draws
    assert sim_fields(sim) == fields(state)  # read only


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 4), st.integers(0, 2**32), st.integers(0, 200), st.integers(0, 2**16))
def test_the_greedy_on_the_position_is_the_greedy_bot(players, seed, steps, rng_seed):
    state = random_position(CARD, players, seed, steps)
    if state.to_move is not None:
        check_policy(state, rng_seed)


def test_the_greedy_on_the_position_is_the_greedy_bot_through_greedy_games():
    """Positions greedy reaches (late rows, piles drawn from, the final round)."""
    checked = 0
    for state in positions(range(20, 26), greedy_bot):
        if state.to_move is not None:
            check_policy(state, checked)
            checked += 1
    assert checked > 600


def reference_rollout(state, rng, seat: int) -> tuple[float, float]:
    """The rollout through the game's rules: greedy_bot on views (a single legal move
    played without a draw), `decide` and `evolve`; each seat's idle turns (E4) counted."""
    idle_by = [0.0] * state.setup.players
    for _ in range(ROLLOUT_TURNS * state.setup.players * 2):
        if state.step == FINISHED or not legal_options(state)[1]:
            break
        mover = state.to_move
        legal = CARD.legal_moves(state, mover)
        move = greedy_bot(CARD.view(state, mover), legal, rng) if len(legal) > 1 else legal[0]
        before = state
        state = card_search.step(state, move)
        if state.turns > before.turns and state.idle_run > before.idle_run:
            idle_by[mover] += IDLE_COST * state.idle_run / IDLE_TURNS
    end = CardSim.of(state)
    end.idle_by = idle_by
    values = [card_sim_estimate(end, s) for s in range(state.setup.players)]
    margin = values[seat] - max(v for s, v in enumerate(values) if s != seat)
    return 1.0 / (1.0 + exp(-margin / MARGIN_SCALE)), margin


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 4), st.integers(0, 2**32), st.integers(0, 250), st.integers(0, 2**16))
def test_the_rollout_is_the_rollout_through_the_rules(players, seed, steps, rng_seed):
    state = random_position(CARD, players, seed, steps)
    seat = rng_seed % players
    sim = CardSim.of(state)
    ours, theirs = random.Random(rng_seed), random.Random(rng_seed)
    assert CARD_TREE.rollout(sim, None, ours, seat) == reference_rollout(state, theirs, seat)
    assert ours.random() == theirs.random()


def test_the_tree_sees_the_game_end_where_the_rules_do():
    for state in positions(range(3)):
        sim = CardSim.of(state)
        expected = None if state.step == FINISHED else state.to_move
        assert CARD_TREE.to_move(sim) == expected
        assert (expected is None) == (not legal_options(state)[1])
