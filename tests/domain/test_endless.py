"""E4-E6, F5, F6: the service rules that end every game, an idle run of 30 turns or the
400th turn, in both engines and in the search's fast positions."""

from __future__ import annotations

import hashlib
import random

import pytest

from domain.card import RULES as CARD
from domain.card.commands import parse
from domain.chance import Chance
from domain.dice import RULES as DICE
from domain.endless import IDLE_TURNS, TURN_LIMIT
from domain.search.card_sim import CardSim
from domain.search.dice_playout import DiceTable, Sim
from tests.support.idle_play import card_idle_move, dice_idle_move

PICKERS = {"keltis-card": card_idle_move, "keltis-dice": dice_idle_move}
ALL_RULES = {"keltis-card": CARD, "keltis-dice": DICE}


def _chance(label: str) -> Chance:
    return Chance(hashlib.sha256(label.encode()).digest())


def _start(rules, players: int = 2, label: str = "endless"):
    chance = _chance(label)
    events = rules.start(players, {}, chance)
    return rules.fold(events), events, chance


def play(rules, progress_every: int | None, max_commands: int = 20_000, label="endless"):
    """Play a game with the idle picker, a progress turn every `progress_every` turns
    (None: never, once the picker can idle). Returns (the final state, every event)."""
    state, events, chance = _start(rules, label=label)
    pick = PICKERS[rules.name]
    for _ in range(max_commands):
        seat = rules.to_move(state)
        if seat is None:
            return state, events
        view = rules.view(state, seat)
        moves = [dict(m) for m in rules.legal_moves(state, seat)]
        turn = view["turns"]
        progress = bool(progress_every) and turn % progress_every == progress_every - 1
        produced = rules.decide(state, seat, pick(view, moves, progress), chance)
        for event in produced:
            state = rules.evolve(state, event)
        events += produced
    raise AssertionError("the game did not end")


def _ended(events) -> dict:
    return next(e for e in events if e["type"] == "game_ended")


@pytest.mark.parametrize("game", ["keltis-card", "keltis-dice"])
def test_E4_F5_thirty_idle_turns_in_a_row_end_the_game(game):
    rules = ALL_RULES[game]
    state, events = play(rules, progress_every=None)
    result = rules.result(state)
    assert result["ended_by"] == "idle_turns"
    assert _ended(events)["ended_by"] == "idle_turns"
    view = rules.full_view(state)
    assert view["idle_turns"] == IDLE_TURNS
    assert view["turns"] < 60  # a few turns to fill the piles, then the idle run


def test_E4_the_idle_run_ends_the_turn_with_the_final_round_E3_following():
    _, events = play(CARD, progress_every=None)
    starts = [e for e in events if e["type"] == "final_round_started"]
    assert [s["reason"] for s in starts] == ["idle_turns"]
    at = events.index(starts[0])
    assert events[at - 1]["type"] == "card_drawn" and events[at - 1]["source"] != "deck"
    assert events[at - 1]["seat"] == starts[0]["by_seat"]
    assert all(e["type"] in ("card_laid", "player_stopped", "game_ended") for e in events[at + 1 :])


@pytest.mark.parametrize("game", ["keltis-card", "keltis-dice"])
def test_E4_F5_a_turn_with_progress_restarts_the_idle_count(game):
    rules = ALL_RULES[game]
    state, _ = play(rules, progress_every=IDLE_TURNS)
    assert rules.result(state)["ended_by"] != "idle_turns"
    assert rules.full_view(state)["turns"] > 2 * IDLE_TURNS


@pytest.mark.parametrize("game", ["keltis-card", "keltis-dice"])
def test_E5_F6_the_400th_turn_ends_the_game(game):
    rules = ALL_RULES[game]
    state, events = play(rules, progress_every=IDLE_TURNS - 5)
    assert rules.result(state)["ended_by"] == "turn_limit"
    assert _ended(events)["ended_by"] == "turn_limit"
    assert rules.full_view(state)["turns"] == TURN_LIMIT


def test_E5_a_card_game_ended_at_the_turn_limit_plays_its_final_round():
    state, events = play(CARD, progress_every=IDLE_TURNS - 5)
    starts = [e for e in events if e["type"] == "final_round_started"]
    assert [s["reason"] for s in starts] == ["turn_limit"]
    assert CARD.full_view(state)["final_round"]["reason"] == "turn_limit"


@pytest.mark.parametrize("game", ["keltis-card", "keltis-dice"])
def test_E6_the_rules_own_end_is_named_too(game):
    rules = ALL_RULES[game]
    rng = random.Random(7)
    state, events, chance = _start(rules, label="own end")
    while rules.to_move(state) is not None:
        seat = rules.to_move(state)
        moves = [dict(m) for m in rules.legal_moves(state, seat)]
        deck = [m for m in moves if m.get("source") == "deck" or m["action"] == "move"]
        move = deck[0] if deck else rng.choice(moves)
        for event in rules.decide(state, seat, move, chance):
            state = rules.evolve(state, event)
            events.append(event)
    own = {
        "keltis-card": {"fifth_row", "deck_empty"},
        "keltis-dice": {"goal_markers", "all_markers_in_goal"},
    }
    assert rules.result(state)["ended_by"] in own[game]
    assert _ended(events)["ended_by"] == rules.result(state)["ended_by"]


def test_E4_E5_the_search_position_ends_where_the_rules_do():
    """CardSim follows the rules move by move through an idle run and a turn limit."""
    for progress_every in (None, IDLE_TURNS - 5):
        state, _, chance = _start(CARD)
        sim = CardSim.of(state)
        while CARD.to_move(state) is not None:
            seat = CARD.to_move(state)
            view = CARD.view(state, seat)
            moves = [dict(m) for m in CARD.legal_moves(state, seat)]
            turn = view["turns"]
            progress = bool(progress_every) and turn % progress_every == progress_every - 1
            move = card_idle_move(view, moves, progress)
            for event in CARD.decide(state, seat, move, chance):
                state = CARD.evolve(state, event)
            sim.play(parse(move).code)
            assert (sim.step, sim.seat, sim.turns, sim.idle) == (
                state.step,
                state.to_move,
                state.turns,
                state.idle_run,
            )


def test_F5_F6_the_dice_playout_ends_where_the_rules_do():
    state, _, _ = _start(DICE)
    sim = Sim.of(state, DiceTable(random.Random(3)))
    for _ in range(IDLE_TURNS):
        sim.keep()
        sim.pass_turn()
    assert sim.stage == "finished" and sim.idle == IDLE_TURNS
    sim = Sim.of(state, DiceTable(random.Random(3)))
    sim.turns = TURN_LIMIT - 1
    sim.keep()
    sim.pass_turn()
    assert sim.stage == "finished"
