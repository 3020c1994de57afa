"""Properties of random legal games for 2-4 players (hypothesis)."""

from __future__ import annotations

import hashlib
import itertools
import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.card import RULES
from domain.card.cards import CANONICAL_KINDS, COLOURS, VALUE_OF, name_of
from domain.card.commands import COMMANDS
from domain.card.scoring import seat_breakdown
from domain.card.state import DRAW, FINAL_ROUND, PLAY
from domain.chance import Chance
from domain.errors import DomainError
from domain.visibility import redact_event

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _all_places(state) -> Counter:
    places = Counter()
    for seat in range(state.setup.players):
        places.update(state.hands[seat])
        for row in state.rows[seat]:
            places.update(row)
    for pile in state.piles:
        places.update(pile)
    places.update(state.setup.deck[state.deck_pos :])
    places.update(state.setup.removed)
    return places


def _row_is_valid(colour: int, names: list[str]) -> bool:
    values = []
    ended = False
    for name in names:
        kind, _, value = name.rpartition("-")
        if ended and value != "end":
            return False
        if value == "end":
            if kind != COLOURS[colour]:
                return False
            ended = True
            continue
        if kind == "point" and (not values or values[-1] != int(value)):
            return False
        if kind not in ("point", COLOURS[colour]):
            return False
        values.append(int(value))
    rising = all(a <= b for a, b in itertools.pairwise(values))
    falling = all(a >= b for a, b in itertools.pairwise(values))
    return rising or falling


def _check_invariants(state) -> None:
    assert _all_places(state) == Counter(CANONICAL_KINDS)
    assert sum(_all_places(state).values()) == 101
    for rows in state.rows:
        for colour in range(5):
            names = [name_of(k) for k in rows[colour]]
            assert _row_is_valid(colour, names), names
    sizes = [len(hand) for hand in state.hands]
    if state.step == PLAY:
        assert sizes == [8] * state.setup.players
    if state.step == DRAW:
        others = [n for s, n in enumerate(sizes) if s != state.to_move]
        assert others == [8] * (state.setup.players - 1)
        assert sizes[state.to_move] == 8 - state.draws_owed
    if state.step == FINAL_ROUND:
        assert all(n <= 8 for n in sizes)


def _check_views(state, events, seed: bytes) -> None:
    secret_hex = seed.hex()
    for viewer in [*range(state.setup.players), None]:
        view = RULES.view(state, viewer)
        text = json.dumps(view)
        assert secret_hex not in text
        assert not {"hands", "deck", "removed"} & set(view)
        for seat in view["seats"]:  # the view's score is the K1-K3 breakdown's total
            breakdown = seat_breakdown(state.rows[seat["seat"]], state.stones_held[seat["seat"]])
            assert seat["score"] == breakdown["total"]
        if viewer is None:
            assert "hand" not in view
        else:
            assert view["hand"] == [name_of(k) for k in state.hands[viewer]]
        for event in events:
            shown = redact_event(event, viewer)
            if "hidden" in shown:
                assert viewer is not None and event.get("owner") == viewer


def _check_legal_equals_accepted(state, rng: random.Random) -> None:
    seat = state.to_move
    legal = [dict(m) for m in RULES.legal_moves(state, seat)]
    for command in legal:
        RULES.decide(state, seat, dict(command), None)
        if command["action"] == "lay" and "row" not in command:
            RULES.decide(state, seat, {**command, "row": command["card"].split("-")[0]}, None)
    candidates = rng.sample(list(COMMANDS.values()), 80)
    for command in candidates:
        try:
            RULES.decide(state, seat, dict(command), None)
            accepted = True
        except DomainError:
            accepted = False
        assert accepted == (dict(command) in legal), command
    for other in range(state.setup.players):
        if other != seat:
            assert RULES.legal_moves(state, other) == []


def _random_game(players: int, game_seed: int, check_every: int):
    seed = hashlib.sha256(f"prop-{game_seed}".encode()).digest()
    chance = Chance(seed)
    rng = random.Random(game_seed)
    events = RULES.start(players, {}, chance)
    state = RULES.fold(events)
    step = 0
    while RULES.phase(state) != "finished":
        seat = RULES.to_move(state)
        moves = RULES.legal_moves(state, seat)
        assert moves
        if step % check_every == 0:
            _check_legal_equals_accepted(state, rng)
            _check_views(state, events, seed)
        new_events = RULES.decide(state, seat, rng.choice(moves), chance)
        for event in new_events:
            json.dumps(event)
            state = RULES.evolve(state, event)
        events.extend(new_events)
        _check_invariants(state)
        step += 1
        assert step < 2000
        if step == check_every * 3:
            assert RULES.full_view(RULES.fold(events)) == RULES.full_view(state)
    return events, state, seed


@SETTINGS
@given(players=st.integers(min_value=2, max_value=4), game_seed=st.integers(0, 2**32))
def test_random_games_keep_every_card_in_one_place_and_rows_valid(players, game_seed):
    events, state, _seed = _random_game(players, game_seed, check_every=15)
    assert RULES.full_view(RULES.fold(events)) == RULES.full_view(state)
    result = RULES.result(state)
    assert events[-1] == {
        "type": "game_ended",
        **{key: result[key] for key in ("scores", "winners", "shared", "ended_by")},
    }
    assert RULES.view(state, 0)["hands"] == RULES.full_view(state)["hands"]


@SETTINGS
@given(players=st.integers(min_value=2, max_value=4), game_seed=st.integers(0, 2**32))
def test_evolve_never_mutates_its_input(players, game_seed):
    seed = hashlib.sha256(f"pure-{game_seed}".encode()).digest()
    chance = Chance(seed)
    rng = random.Random(game_seed)
    state = RULES.fold(RULES.start(players, {}, chance))
    for _ in range(120):
        if RULES.phase(state) == "finished":
            break
        snapshot = json.dumps(RULES.full_view(state), sort_keys=True)
        seat = RULES.to_move(state)
        for event in RULES.decide(state, seat, rng.choice(RULES.legal_moves(state, seat)), chance):
            new_state = RULES.evolve(state, event)
            assert json.dumps(RULES.full_view(state), sort_keys=True) == snapshot
            state = new_state
            snapshot = json.dumps(RULES.full_view(state), sort_keys=True)


def test_point_values_cover_zero_to_ten():
    assert sorted(VALUE_OF[k] for k in CANONICAL_KINDS if k >= 60) == list(range(11))
