"""The information-set tree search: `search_root` statistics, every legal
move reachable, the root decided from the seat's view alone, determinism."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.search import card as card_search
from domain.search import ismcts
from domain.search.bot import tree_game
from domain.search.budget import IterationBudget
from domain.search.ismcts import search_root
from tests.domain.search.test_mcts import CARD, DICE, build, random_position

positions = st.tuples(
    st.sampled_from(["card", "basic", "advanced"]),
    st.integers(2, 4),
    st.integers(0, 2**32),
    st.integers(0, 200),
)


def _root(rules, state, iterations: int, seed: int):
    seat = rules.to_move(state)
    view, legal = rules.view(state, seat), rules.legal_moves(state, seat)
    stats = search_root(
        tree_game(view), view, legal, random.Random(seed), IterationBudget(iterations)
    )
    return legal, stats


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions, st.integers(0, 1000))
def test_root_statistics_are_legal_moves_with_one_visit_per_iteration(position, seed):
    """C1-K4, T1-T6 and both boards (W2): every root move is legal, the most visited ones
    have a visit per iteration, rewards lie in [0, 1], the margins are points, and the move
    played is the best mean reward among the well-visited."""
    rules, state = build(*position)
    if rules.to_move(state) is None:
        return
    legal, stats = _root(rules, state, 12, seed)
    if len(legal) == 1:
        assert [s.move for s in stats] == legal
        return
    assert all(s.move in legal for s in stats)
    assert len({str(s.move) for s in stats}) == len(stats)
    # every iteration plays the prior's best root moves in its world (common random numbers)
    assert max(s.visits for s in stats) == 12 and all(s.visits <= 12 for s in stats)
    assert all(0.0 <= s.mean_reward <= 1.0 and abs(s.mean_margin) < 200 for s in stats)
    played = stats[0]
    assert 2 * played.visits >= 12
    assert all(played.mean_reward >= s.mean_reward for s in stats if 2 * s.visits >= 12)


def test_every_legal_card_move_is_reachable_beyond_a_top_five():
    """No fixed cut: with enough iterations the root tries more moves than greedy's top 5,
    down to the ones greedy ranks last (progressive widening)."""
    widest = 0
    for seed in range(6):
        state = random_position(CARD, 2, seed, 20 + 2 * seed)
        if state.step != "play":
            continue
        legal, stats = _root(CARD, state, 150, seed)
        widest = max(widest, len(stats))
        if len(legal) <= 12:
            assert len(stats) == len(legal)
    assert widest > 5


def test_same_view_other_hidden_cards_same_statistics():
    """The search never peeks: two worlds with the same view of the seat give the same root
    statistics for the same rng and iterations."""
    checked = 0
    for seed in range(8):
        state = random_position(CARD, 2 + seed % 3, seed, 25 + seed * 9)
        seat = state.to_move
        if seat is None or len(CARD.legal_moves(state, seat)) < 2:
            continue
        view = CARD.view(state, seat)
        other = card_search.determinize(view, random.Random(seed + 77))
        assert other.hands != state.hands or other.setup.deck != state.setup.deck
        _, first = _root(CARD, state, 8, seed)
        _, second = _root(CARD, other, 8, seed)
        assert first == second
        checked += 1
    assert checked >= 5


def test_dice_root_searches_the_rerolls_and_is_deterministic():
    """T1: at a roll the search weighs keeping against rerolls; the same rng and iteration
    count give the same statistics."""
    for board in ("basic", "advanced"):
        state = random_position(DICE, 2, 11, 0, {"board": board})
        assert state.step == "roll"
        legal, stats = _root(DICE, state, 60, 3)
        assert len(stats) > 3 and all(s.move in legal for s in stats)
        assert _root(DICE, state, 60, 3)[1] == stats


def _race(samples: dict[int, list[float]]) -> set[int]:
    race = ismcts._Root(32)
    race.samples = samples
    race.race()
    return race.dropped


def test_the_race_drops_a_root_move_the_leader_beats_beyond_doubt():
    """A root move whose paired rewards trail the leader's by many standard errors is dropped;
    a move within noise of the leader and a move with too few pairs stay in the race."""
    rng = random.Random(5)
    worlds = [rng.random() for _ in range(64)]  # common random numbers: the world's luck
    leader = [0.5 * w + 0.3 + rng.gauss(0, 0.02) for w in worlds]
    close = [0.5 * w + 0.3 + rng.gauss(0, 0.02) for w in worlds]
    worse = [0.5 * w + 0.25 + rng.gauss(0, 0.02) for w in worlds]
    late = [0.0] * 31  # admitted late: fewer pairs than the race's minimum (32)
    assert _race({1: leader, 2: close, 3: worse, 4: late}) == {3}


def test_a_race_pairs_the_rewards_of_the_same_worlds():
    """Without the pairing the worse move's lead is lost in the worlds' luck: the same
    rewards shuffled (each move's mean unchanged) are not dropped."""
    rng = random.Random(6)
    worlds = [rng.random() for _ in range(64)]
    leader = [w + 0.05 for w in worlds]
    worse = [w for w in worlds]
    assert _race({1: leader, 2: worse}) == {2}
    rng.shuffle(worse)
    assert _race({1: leader, 2: worse}) == set()


def test_dropped_root_moves_cost_no_more_iterations(monkeypatch):
    """With the race on, the moves dropped stop being played, so the root's moves cost far
    fewer rollouts, and the move played is the most visited; off, every admitted move is
    played in every iteration."""
    state = next(
        s
        for seed in range(20)
        if (s := random_position(CARD, 2, seed, 30)).step == "play"
        and len(CARD.legal_moves(s, s.to_move)) >= 8
    )
    _, raced = _root(CARD, state, 200, 1)
    monkeypatch.setattr(ismcts, "RACE_Z", 0)
    _, unraced = _root(CARD, state, 200, 1)
    assert raced[0].visits == max(s.visits for s in raced)
    assert sum(s.visits for s in raced) < 0.6 * sum(s.visits for s in unraced)
    assert sum(s.visits == 200 for s in unraced) >= ismcts.ROOT_BASE


def test_a_settled_search_stops_early_with_the_move_the_full_budget_plays(monkeypatch):
    """Once every legal move has been played and the race has left one, the search stops:
    the same move as searching on to the budget, for fewer iterations."""
    settled = 0
    for seed in range(8):
        state = random_position(CARD, 2, seed, 24 + 3 * seed)
        if state.to_move is None or len(CARD.legal_moves(state, state.to_move)) < 2:
            continue
        monkeypatch.setattr(ismcts, "SETTLE", True)
        _, early = _root(CARD, state, 600, seed)
        monkeypatch.setattr(ismcts, "SETTLE", False)
        _, full = _root(CARD, state, 600, seed)
        assert early[0].move == full[0].move
        settled += max(s.visits for s in early) < 600
    assert settled >= 2
