"""Game analysis judges each seat from its own view only (R2): views are
the rules' views rebuilt from the log, hidden cards the seat never saw change nothing, and
the same game gives the same analysis twice."""

from __future__ import annotations

import copy
import hashlib
import json
import random

import pytest

from domain.analysis.review import Turn, analyse, decisions, mark_of, summary
from domain.analysis.values import candidates, move_values
from domain.card.cards import KIND_OF
from domain.playout import play_game
from domain.registry import get_rules
from domain.search.budget import IterationBudget

CARD = get_rules("keltis-card")
DICE = get_rules("keltis-dice")


def played(rules, seed_text: str, bots=("greedy", "greedy"), options=None):
    """(opening events, turns) of a whole game played in process."""
    turns = []
    playout = play_game(
        rules,
        list(bots),
        hashlib.sha256(seed_text.encode()).digest(),
        3,
        options,
        on_step=lambda seat, command, events: turns.append((seat, command, list(events))),
    )
    opening = playout.events[: len(playout.events) - sum(len(t[2]) for t in turns)]
    version = len(opening) + 1  # entry 1 is game_created in a stored log
    made = []
    for seat, command, events in turns:
        made.append(Turn(version + 1, seat, command, events))
        version += len(events)
    return opening, made


def _mentions(events, name: str) -> bool:
    return any(f'"{name}"' in json.dumps(event) for event in events)


def hidden_swap(opening: list[dict], turns: list[Turn]) -> list[dict]:
    """The opening with one card seat 1 held all game (never in any later event) swapped
    for a removed card nobody ever saw: the same game for seat 0's eyes, another for seat
    1's and in truth."""
    later = [event for turn in turns for event in turn.events]
    dealt = opening[2]["hidden"]["cards"]
    removed = opening[0]["hidden"]["removed"]
    kept = next(card for card in dealt if not _mentions(later, card))
    unseen = next(card for card in removed if card not in dealt and not _mentions(later, card))
    changed = copy.deepcopy(opening)
    hand = list(dealt)
    hand[hand.index(kept)] = unseen
    changed[2]["hidden"]["cards"] = sorted(hand, key=KIND_OF.__getitem__)
    gone = list(removed)
    gone[gone.index(unseen)] = kept
    changed[0]["hidden"]["removed"] = gone
    return changed


def test_R2_a_seat_is_judged_only_on_what_it_could_see():
    """Two games with the same views for seat 0 but different hidden cards (seat 1's hand,
    the removed cards) give seat 0 the same analysis."""
    opening, turns = played(CARD, "analysis-hidden-17")  # seat 1 holds blue-10 all game
    other = hidden_swap(opening, turns)
    assert other != opening
    truth = [d for d in decisions(CARD, opening, turns)]
    alter = [d for d in decisions(CARD, other, turns)]
    assert any(a.view != b.view for a, b in zip(truth, alter, strict=True) if a.seat == 1)
    mine = [(a.view, a.legal) for a in truth if a.seat == 0]
    assert mine == [(b.view, b.legal) for b in alter if b.seat == 0]
    budget, some = IterationBudget(1), turns[:30]  # the card stays hidden in every turn
    first = analyse(CARD, "g-hidden", opening, some, 2, budget, candidates)
    second = analyse(CARD, "g-hidden", other, some, 2, budget, candidates)
    seat0 = [line for line in first["decisions"] if line["seat"] == 0]
    assert seat0 and seat0 == [line for line in second["decisions"] if line["seat"] == 0]
    assert first["seats"][0] == second["seats"][0]


def test_R2_a_decision_carries_the_rules_view_of_its_seat_folded_from_the_log():
    opening, turns = played(CARD, "analysis-views-1")
    events = list(opening)
    for decision, turn in zip(decisions(CARD, opening, turns), turns, strict=True):
        state = CARD.fold(events)
        assert decision.seat == turn.seat and decision.played == turn.command
        assert decision.view == CARD.view(state, turn.seat)
        assert "hands" not in decision.view  # never the full view of every hand
        assert decision.legal == CARD.legal_moves(state, turn.seat)
        events += turn.events


def test_move_values_are_the_same_for_the_same_view_and_rng_and_read_no_hidden_card():
    """Same view, different hidden cards (another seat's hand, the deck): same values."""
    opening, _ = played(CARD, "analysis-values-1")
    other = copy.deepcopy(opening)
    deck = other[0]["hidden"]["deck"]
    hand = other[2]["hidden"]["cards"]
    swap = next(i for i, card in enumerate(deck) if card not in hand)
    hand[0], deck[swap] = deck[swap], hand[0]
    other[2]["hidden"]["cards"] = sorted(hand, key=KIND_OF.__getitem__)
    a, b = CARD.fold(opening), CARD.fold(other)
    assert CARD.full_view(a) != CARD.full_view(b)
    view = CARD.view(a, 0)
    assert view == CARD.view(b, 0)
    moves = candidates(view, CARD.legal_moves(a, 0))
    one = move_values(view, moves, random.Random(5), IterationBudget(2))
    two = move_values(CARD.view(b, 0), moves, random.Random(5), IterationBudget(2))
    assert one == two and [m for m, _ in one] == moves


@pytest.mark.parametrize("rules,options", [(CARD, None), (DICE, {"board": "advanced"})])
def test_the_same_game_gives_the_same_analysis_twice(rules, options):
    opening, turns = played(rules, "analysis-twice", ("greedy", "random"), options)
    turns = turns[:16]
    first = analyse(rules, "g-twice", opening, turns, 2, IterationBudget(1), candidates)
    again = analyse(rules, "g-twice", opening, turns, 2, IterationBudget(1), candidates)
    assert first == again
    assert first["decisions"], "a game of choices has decisions to judge"
    for line in first["decisions"]:
        assert line["loss"] == round(max(0.0, line["best_value"] - line["played_value"]), 3)
        assert line["mark"] == mark_of(line["loss"])
    elsewhere = analyse(rules, "g-other-id", opening, turns, 2, IterationBudget(1), candidates)
    assert [x["step"] for x in elsewhere["decisions"]] == [x["step"] for x in first["decisions"]]


def test_a_summary_has_each_seats_average_loss_and_three_largest_mistakes():
    lines = [
        {"step": s, "version": s, "seat": s % 2, "loss": float(s), "mark": mark_of(s),
         "played": {}, "best": {}}
        for s in range(8)
    ]  # fmt: skip
    seats = summary(lines, 2)
    assert seats[0]["decisions"] == 4 and seats[0]["average_loss"] == 3.0
    assert [m["step"] for m in seats[0]["largest"]] == [6, 4, 2]
    assert [m["step"] for m in seats[1]["largest"]] == [7, 5, 3]
    assert seats[1]["marks"] == {"blunder": 1, "mistake": 2, "inaccuracy": 1}
    assert mark_of(0.5) is None and mark_of(6.0) == "blunder"
