"""C1-C4, S1, S2: the cards, their notation, shuffle, removal and deal."""

from __future__ import annotations

from collections import Counter

import pytest

from domain.card import RULES
from domain.card.cards import CANONICAL_DECK, COLOURS, STONES, kind_of, name_of
from domain.errors import IllegalMove, InvalidOptions
from domain.levels import level_names
from tests.domain.card.positions import position
from tests.domain.card.support import chance, play


def test_C1_colour_cards_per_colour():
    counts = Counter(CANONICAL_DECK)
    for colour in COLOURS:
        for value in (0, 1, 2, 8, 9, 10):
            assert counts[f"{colour}-{value}"] == 1
        for value in (3, 4, 5, 6, 7):
            assert counts[f"{colour}-{value}"] == 2
        assert counts[f"{colour}-end"] == 2
        assert sum(n for name, n in counts.items() if name.startswith(colour + "-")) == 18
    assert sum(n for name, n in counts.items() if not name.startswith("point")) == 90


def test_C2_point_cards_and_deck_size():
    points = [name for name in CANONICAL_DECK if name.startswith("point-")]
    assert points == [f"point-{v}" for v in range(11)]
    assert len(CANONICAL_DECK) == 101


def test_C3_nine_stones_beside_the_deck():
    state = RULES.fold(RULES.start(3, {}, chance()))
    assert tuple(range(1, 10)) == STONES
    assert RULES.view(state, 0)["stones_on_table"] == list(range(1, 10))
    assert not any(isinstance(card, int) for card in CANONICAL_DECK)


def test_C4_notation_round_trips_and_bad_names_are_rejected():
    assert name_of(kind_of("blue-7")) == "blue-7"
    assert name_of(kind_of("blue-end")) == "blue-end"
    assert name_of(kind_of("point-5")) == "point-5"
    for bad in ("blue-11", "point-end", "grey-5", "blue", 7, None):
        assert kind_of(bad) is None
    state = position(hands={0: ["blue-7"]})
    with pytest.raises(IllegalMove) as error:
        play(state, 0, {"action": "discard", "card": "blue-11"})
    assert error.value.rule == "C4"


def test_C4_twins_share_a_name_and_are_listed_once():
    state = position(hands={0: ["blue-3", "blue-3", "pink-5"]})
    discards = [m for m in RULES.legal_moves(state, 0) if m["action"] == "discard"]
    assert [m["card"] for m in discards] == ["pink-5", "blue-3"]


def _all_cards(state) -> Counter:
    cards = Counter(name_of(k) for hand in state.hands for k in hand)
    cards.update(name_of(k) for k in state.setup.deck)
    cards.update(name_of(k) for k in state.setup.removed)
    return cards


@pytest.mark.parametrize("players", [2, 3, 4])
def test_S1_thirty_cards_removed_only_with_two_players(players):
    events = RULES.start(players, {}, chance(f"s1-{players}"))
    state = RULES.fold(events)
    removed = 30 if players == 2 else 0
    assert len(state.setup.removed) == removed
    assert state.deck_size == 101 - removed - 8 * players
    assert _all_cards(state) == Counter(CANONICAL_DECK)
    view = RULES.view(state, 0)
    assert view["removed_count"] == removed
    assert "removed" not in view and "deck" not in view


def test_S1_shuffle_is_the_documented_chance_stream():
    order = chance("s1").shuffled(CANONICAL_DECK, "deck")
    events = RULES.start(2, {}, chance("s1"))
    assert events[0]["hidden"]["removed"] == order[:30]
    assert events[0]["hidden"]["deck"] == order[30 + 16 :]
    assert "owner" not in events[0]


def test_S2_deal_eight_each_in_seat_blocks_seat_0_first():
    order = chance("s2").shuffled(CANONICAL_DECK, "deck")
    events = RULES.start(3, {}, chance("s2"))
    dealt = [e for e in events if e["type"] == "cards_dealt"]
    assert [e["seat"] for e in dealt] == [0, 1, 2]
    for seat, event in enumerate(dealt):
        assert event["owner"] == seat and event["count"] == 8
        assert Counter(event["hidden"]["cards"]) == Counter(order[seat * 8 : seat * 8 + 8])
    state = RULES.fold(events)
    assert RULES.to_move(state) == 0
    assert RULES.phase(state) == "active"
    assert [len(h) for h in state.hands] == [8, 8, 8]


@pytest.mark.parametrize("players", [1, 5, 0])
def test_S1_player_count_outside_2_to_4_is_refused(players):
    with pytest.raises(InvalidOptions):
        RULES.start(players, {}, chance())


def test_options_none_known_yet():
    assert RULES.normalize_options({}) == {}
    with pytest.raises(InvalidOptions):
        RULES.normalize_options({"variant": "x"})
    assert (RULES.name, RULES.min_players, RULES.max_players) == ("keltis-card", 2, 4)
    assert set(RULES.bots) == {"random", "greedy", "mcts", *level_names()}  # levels: their recipes
