"""The `mcts` bot: legal moves only, decisions from the seat's view alone, determinizations
consistent with the view, budgets in its name."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.autoplay import choose_move
from domain.bots import DEFAULT_CAPS_MS, DEFAULT_MS, mcts_budget
from domain.card.cards import CANONICAL_KINDS
from domain.chance import Chance
from domain.registry import get_rules
from domain.search import card as card_search
from domain.search import dice as dice_search
from domain.search.budget import CpuBudget, IterationBudget

CARD, DICE = get_rules("keltis-card"), get_rules("keltis-dice")


def random_position(rules, players: int, seed: int, steps: int, options=None):
    """The state after `steps` random moves from a fresh game (or its end, if sooner)."""
    chance = Chance(seed.to_bytes(32, "big"))
    state = rules.fold(rules.start(players, rules.normalize_options(options or {}), chance))
    rng = random.Random(seed)
    for _ in range(steps):
        seat = rules.to_move(state)
        if seat is None:
            break
        moves = rules.legal_moves(state, seat)
        for event in rules.decide(state, seat, rng.choice(moves), chance):
            state = rules.evolve(state, event)
    return state


positions = st.tuples(
    st.sampled_from(["card", "basic", "advanced"]),
    st.integers(2, 4),
    st.integers(0, 2**32),
    st.integers(0, 200),
)


def build(kind: str, players: int, seed: int, steps: int):
    if kind == "card":
        return CARD, random_position(CARD, players, seed, steps)
    return DICE, random_position(DICE, players, seed, steps, {"board": kind})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions, st.integers(0, 1000))
def test_mcts_never_returns_an_illegal_move(position, bot_seed):
    rules, state = build(*position)
    seat = rules.to_move(state)
    if seat is None:
        return
    legal = rules.legal_moves(state, seat)
    move = rules.bots["mcts:i3"](rules.view(state, seat), legal, random.Random(bot_seed))
    assert move in legal
    assert (
        choose_move(rules, state, seat, rules.bots["mcts:i3"], random.Random(1)).fallback is False
    )


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**32), st.integers(0, 250), st.integers(0, 99))
def test_a_card_determinization_is_consistent_with_the_view(players, seed, steps, sample):
    state = random_position(CARD, players, seed, steps)
    viewer = state.to_move if state.to_move is not None else 0
    view = CARD.view(state, viewer)
    if view["step"] == "finished":
        return
    world = card_search.determinize(view, random.Random(sample))
    # every known card where the view says it is: the world shows the viewer the same view
    assert CARD.view(world, viewer) == view
    # no card twice, none missing: hands, rows, piles, draw pile and removed cards are a deck
    cards = [k for hand in world.hands for k in hand]
    cards += [k for rows in world.rows for row in rows for k in row]
    cards += [k for pile in world.piles for k in pile]
    cards += list(world.setup.deck[world.deck_pos :]) + list(world.setup.removed)
    assert Counter(cards) == Counter(CANONICAL_KINDS)
    # cards others drew from a pile are in their hands
    for seat in range(players):
        assert not Counter(world.shown[seat]) - Counter(world.hands[seat])
    assert CARD.legal_moves(world, viewer) == CARD.legal_moves(state, viewer)


def test_cards_drawn_from_a_pile_are_known_to_be_in_the_hand():
    """Every view shows which cards a seat drew from a discard pile and still holds."""
    for seed in range(40):
        state = random_position(CARD, 3, seed, 120)
        view = CARD.view(state, 0)
        for seat in range(3):
            known = Counter(view["seats"][seat]["known_cards"])
            hand = Counter(CARD.full_view(state)["hands"][seat])
            assert not known - hand
        if any(view["seats"][seat]["known_cards"] for seat in (1, 2)):
            return
    raise AssertionError("no game drew from a pile")


def test_same_view_different_hidden_cards_same_move():
    """The bot cannot peek: a world with other hidden cards but the same view gets the same
    move from the same rng and iteration count."""
    bot = CARD.bots["mcts:i6"]
    checked = 0
    for seed in range(12):
        state = random_position(CARD, 2 + seed % 3, seed, 30 + seed * 7)
        seat = state.to_move
        if seat is None:
            continue
        view = CARD.view(state, seat)
        other = card_search.determinize(view, random.Random(seed + 1000))
        assert other.hands != state.hands or other.setup.deck != state.setup.deck
        assert CARD.view(other, seat) == view
        first = bot(view, CARD.legal_moves(state, seat), random.Random(seed))
        second = bot(CARD.view(other, seat), CARD.legal_moves(other, seat), random.Random(seed))
        assert first == second
        checked += 1
    assert checked >= 8


def test_a_dice_view_gives_back_its_state():
    for seed in range(20):
        state = random_position(DICE, 2 + seed % 3, seed, seed * 5, {"board": "advanced"})
        if state.step == "finished":
            continue
        assert dice_search.state_of(DICE.view(state, None)) == state


def test_fixed_iterations_are_deterministic():
    state = random_position(CARD, 2, 5, 40)
    seat = state.to_move
    view, legal = CARD.view(state, seat), CARD.legal_moves(state, seat)
    moves = {str(CARD.bots["mcts:i8"](view, legal, random.Random(9))) for _ in range(3)}
    assert len(moves) == 1


def test_budgets_in_the_name():
    bots = CARD.bots
    for name in ("mcts", "mcts:10", "mcts:250", "mcts:5000", "mcts:i1", "mcts:i200"):
        assert name in bots, name
    for name in ("mcts:9", "mcts:5001", "mcts:i0", "mcts:", "mcts:abc", "mcts:-5", "mctsx"):
        assert name not in bots, name
    assert "mcts" in list(bots) and "mcts:250" not in list(bots)


def test_a_cpu_budget_stops_on_its_clock():
    now = [0.0]

    def clock():
        now[0] += 0.01  # every reading: 10 ms later
        return now[0]

    more = CpuBudget(100, clock).start()
    done = 0
    while more(done):
        done += 1
    assert 3 <= done <= 10
    assert IterationBudget(0).iterations == 1


def test_the_default_budget_is_its_matchs_cap():
    """`mcts` searches DEFAULT_MS a move, or its match's longer cap (2-player card, where
    most moves settle early); `mcts:<ms>` is the same in every match."""
    default = mcts_budget("mcts")
    card_2p = CARD.view(random_position(CARD, 2, 1, 10), 0)
    card_4p = CARD.view(random_position(CARD, 4, 1, 10), 0)
    dice_2p = DICE.view(random_position(DICE, 2, 1, 0), 0)
    assert default.for_view(card_2p).ms == DEFAULT_CAPS_MS[("keltis-card", 2)] > DEFAULT_MS
    assert default.for_view(card_4p).ms == DEFAULT_MS
    assert default.for_view(dice_2p).ms == DEFAULT_MS
    assert mcts_budget("mcts:300").ms == 300


def test_only_reproducible_bots_may_fall_back_for_a_clock():
    assert CARD.bots.reproducible("greedy") and CARD.bots.reproducible("mcts:i50")
    assert not CARD.bots.reproducible("mcts") and not CARD.bots.reproducible("mcts:100")
