"""Properties of random legal games for 2-4 players on both sides (R3, W4, T1-T6)."""

from __future__ import annotations

import functools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.chance import Chance
from domain.dice import RULES
from domain.dice.board import COLORS
from domain.dice.commands import REROLL_CHOICES
from domain.dice.state import FACES, MARKERS, SUPPLY
from domain.errors import DomainError, IllegalMove, NotYourTurn

UNIVERSE = (
    [{"action": "keep"}, {"action": "pass"}]
    + [{"action": "reroll", "dice": list(indexes)} for indexes in REROLL_CHOICES]
    + [{"action": action, "color": color} for action in ("move", "clover") for color in COLORS]
    + [
        {"action": "dance"},
        {"action": "move"},
        {"action": "move", "color": "red"},
        {"action": "keep", "extra": 1},
        {"action": "reroll", "dice": [7]},
        {"action": "reroll", "dice": []},
        {"action": ["keep"]},
        {},
    ]
)

GAMES = st.tuples(
    st.integers(min_value=0, max_value=2**64),
    st.integers(min_value=2, max_value=4),
    st.sampled_from(["basic", "advanced"]),
)


def random_game(seed: int, players: int, board: str, probe: random.Random | None = None):
    """Play uniformly random legal moves; with `probe`, check each step's legality contract."""
    chance = Chance(seed.to_bytes(32, "big"))
    rng = random.Random(seed)
    log = RULES.start(players, {"board": board}, chance)
    state = RULES.fold(log)
    states = [state]
    while RULES.phase(state) != "finished" and len(states) < 3000:
        seat = RULES.to_move(state)
        legal = RULES.legal_moves(state, seat)
        if probe is not None:
            check_legality(state, seat, legal, chance, probe)
        command = rng.choice(legal)
        events = RULES.decide(state, seat, command, chance)
        for event in events:
            state = RULES.evolve(state, event)
        log.extend(events)
        states.append(state)
    return log, states, chance


def check_legality(state, seat, legal, chance, probe: random.Random) -> None:
    """legal_moves is exactly what decide accepts (a sample of the rest is refused)."""
    for command in legal:
        RULES.decide(state, seat, command, chance)
    for command in probe.sample(UNIVERSE, 8):
        if command not in legal:
            try:
                RULES.decide(state, seat, command, chance)
            except IllegalMove as error:
                assert error.rule in {"T1", "T3", "T4", "T5", "T6", "W4"}
            else:
                raise AssertionError(f"{command} accepted but not in legal_moves")
    other = (seat + 1) % state.players
    assert RULES.legal_moves(state, other) == []
    try:
        RULES.decide(state, other, legal[0], chance)
    except NotYourTurn:
        pass
    else:
        raise AssertionError("a seat acted out of turn")


def snapshot(state) -> dict:
    return {name: getattr(state, name) for name in type(state).__slots__}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GAMES)
def test_R3_fold_of_events_equals_state_built_step_by_step(game):
    log, states, _ = random_game(*game)
    assert RULES.fold(log) == states[-1]
    assert snapshot(RULES.fold(log)) == snapshot(states[-1])
    assert RULES.phase(states[-1]) == "finished"
    assert RULES.result(states[-1]) is not None


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GAMES, st.randoms(use_true_random=False))
def test_T1_T6_legal_moves_are_exactly_what_decide_accepts(game, probe):
    random_game(*game, probe=probe)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GAMES)
def test_W4_T5_marker_limits_and_tile_conservation_hold_throughout(game):
    _, states, _ = random_game(*game)
    for state in states:
        assert state.supply + sum(state.tiles) == SUPPLY
        assert state.supply >= 0
        for row in state.positions:
            assert len(row) == len(COLORS)  # one marker per path by construction
            assert len(row) - row.count(0) <= MARKERS
            for path, field in enumerate(row):
                assert 0 <= field <= 9
                assert not state.board.forbidden[path][field]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GAMES)
def test_R3_every_roll_rederives_from_the_seed(game):
    log, _, chance = random_game(*game)
    expected_k = 0
    dice: list[str] = []
    for event in log:
        if event["type"] == "dice_rolled":
            assert event["roll"] == expected_k
            drawn = chance.draws(f"roll:{expected_k}", 5, 6)
            assert event["dice"] == [FACES[f] for f in drawn]
            dice = list(event["dice"])
            expected_k += 1
        elif event["type"] == "dice_rerolled":
            assert event["roll"] == expected_k
            indexes = event["indexes"]
            assert indexes == sorted(indexes)
            drawn = chance.draws(f"roll:{expected_k}", len(indexes), 6)
            for index, face in zip(indexes, drawn, strict=True):
                dice[index] = FACES[face]
            assert event["dice"] == dice
            expected_k += 1
    assert expected_k >= 1


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GAMES)
def test_R2_views_are_public_json_and_evolve_never_mutates(game):
    import json

    log, states, _ = random_game(*game)
    state = None
    for event in log:
        before = None if state is None else snapshot(state)
        following = RULES.evolve(state, event)
        if state is not None:
            assert snapshot(state) == before
        state = following
    last = states[-1]
    assert RULES.view(last, 0) == RULES.view(last, None) == RULES.full_view(last)
    text = json.dumps(RULES.view(states[len(states) // 2], 1))
    assert "seed" not in text


def test_R3_same_seed_same_game():
    first, _, _ = random_game(42, 3, "advanced")
    second, _, _ = random_game(42, 3, "advanced")
    assert first == second


def test_R1_decide_rejects_non_dict_command():
    log = RULES.start(2, {}, Chance(bytes(32)))
    state = RULES.fold(log)
    try:
        RULES.decide(state, 0, "keep", Chance(bytes(32)))  # type: ignore[arg-type]
    except DomainError as error:
        assert isinstance(error, IllegalMove)
    else:
        raise AssertionError("a string command was accepted")


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 9)
    | st.floats(allow_nan=False)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=10,
)
COMMANDS = st.fixed_dictionaries(
    {"action": st.sampled_from(["keep", "reroll", "move", "clover", "pass"]) | JSON},
    optional={"dice": JSON | st.lists(st.integers(-1, 5), max_size=6), "color": JSON},
)


@functools.cache
def sample_game():
    return random_game(5, 2, "advanced")


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 60), COMMANDS)
def test_T1_any_json_command_is_accepted_only_if_legal(step, command):
    _, states, chance = sample_game()
    state = states[min(step, len(states) - 2)]
    seat = RULES.to_move(state)
    legal = RULES.legal_moves(state, seat)
    try:
        RULES.decide(state, seat, command, chance)
    except IllegalMove:
        assert command not in legal
    else:
        normalized = dict(command)
        if normalized.get("action") == "reroll":
            normalized["dice"] = sorted(normalized["dice"])
        assert normalized in legal
