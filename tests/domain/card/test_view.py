"""R2: what each viewer may see of a keltis-card game."""

from __future__ import annotations

import json

from domain.card import RULES
from domain.card.cards import kind_of
from domain.visibility import redact_event
from tests.domain.card.positions import position
from tests.domain.card.support import chance, play


def test_R2_view_shows_own_sorted_hand_and_public_table_only():
    events = RULES.start(2, {}, chance("view"))
    state = RULES.fold(events)
    view = RULES.view(state, 1)
    own = events[2]["hidden"]["cards"]
    assert view["hand"] == own == sorted(own, key=kind_of)
    assert [s["hand_size"] for s in view["seats"]] == [8, 8]
    assert view["deck_size"] == 101 - 30 - 16
    assert not {"hands", "deck", "removed"} & set(view)
    text = json.dumps(view)
    hidden_elsewhere = set(events[1]["hidden"]["cards"]) - set(own)
    assert all(f'"{card}"' not in text for card in hidden_elsewhere)
    spectator = RULES.view(state, None)
    assert "hand" not in spectator and spectator["viewer"] is None


def test_R2_events_hide_hands_deck_and_removed_cards():
    events = RULES.start(2, {}, chance("events"))
    started, dealt_0, dealt_1 = events
    for viewer in (0, 1, None):
        assert "hidden" not in redact_event(started, viewer)
    assert "hidden" in redact_event(dealt_0, 0) and "hidden" not in redact_event(dealt_0, 1)
    assert "hidden" not in redact_event(dealt_1, None)
    assert (
        redact_event(started, 1, revealed=True)["hidden"]["removed"] == started["hidden"]["removed"]
    )


def test_R2_a_deck_draw_is_private_a_pile_draw_public():
    state = position(hands={0: ["blue-7"]}, piles={"pink": ["pink-4"]}, deck=["green-9", "green-8"])
    _, state = play(state, 0, {"action": "discard", "card": "blue-7"})
    events, _ = play(state, 0, {"action": "draw", "source": "deck"})
    assert redact_event(events[0], 1) == {
        "type": "card_drawn",
        "seat": 0,
        "source": "deck",
        "owner": 0,
    }
    events, _ = play(state, 0, {"action": "draw", "source": "pink"})
    assert redact_event(events[0], 1)["card"] == "pink-4"


def test_R2_full_view_reveals_everything():
    state = RULES.fold(RULES.start(2, {}, chance("full")))
    full = RULES.full_view(state)
    assert len(full["removed"]) == 30 and len(full["deck"]) == 55
    assert [len(hand) for hand in full["hands"]] == [8, 8]
