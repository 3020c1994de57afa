"""keltis-card for the search: determinizations of a seat's view and an evaluation of where
a rollout stops (`estimate`).

A determinization deals the cards the seat cannot see uniformly at random: the full deck
minus its own hand, every laid row, every discard pile and the cards others are known to
hold (drawn from a pile: `known_cards` of the view) is shuffled and dealt to the other
hands (after their known cards), the draw pile and, with two players, the removed cards.
"""

from __future__ import annotations

from domain.card.cards import CANONICAL_KINDS, COLOURS, KIND_OF, ROWS
from domain.card.decide import decide
from domain.card.evolve import REDUCERS
from domain.card.state import EMPTY, NEXT_STATUS, Board, CardState, Setup
from domain.search import card_sim
from domain.search.card_sim import CardSim

ROW_INDEX = {name: index for index, name in enumerate(ROWS)}


def _kinds(names) -> list[int]:
    return [KIND_OF[name] for name in names]


def _status(cards: list[int]) -> int:
    status = EMPTY
    for kind in cards:
        status = NEXT_STATUS[status][kind % 12]
    return status


def unseen(view: dict) -> tuple[list[int], list[list[int]]]:
    """(the kinds the viewer cannot place, each seat's known hand cards)."""
    pool: dict[int, int] = {}
    for kind in CANONICAL_KINDS:
        pool[kind] = pool.get(kind, 0) + 1
    seen = _kinds(view["hand"])
    known = []
    for seat in view["seats"]:
        for colour in COLOURS:
            seen += _kinds(seat["rows"][colour]["cards"])
        seen += _kinds(seat["point_row"])
        cards = _kinds(seat.get("known_cards", ()))
        known.append(cards)
        if seat["seat"] != view["viewer"]:  # the viewer's own are in its hand already
            seen += cards
    for cards in view["piles"].values():
        seen += _kinds(cards)
    for kind in seen:
        pool[kind] -= 1
    return [kind for kind, count in sorted(pool.items()) for _ in range(count)], known


class Dealer:
    """Determinizations of one view: the view is read once; each deal shuffles the cards
    the viewer cannot see with `rng` and deals them (`determinize`)."""

    def __init__(self, view: dict):
        self.view = view
        self.pool, self.known = unseen(view)
        self.own = tuple(sorted(_kinds(view["hand"])))
        self.template: CardSim | None = None

    def _deal(self, rng) -> tuple[tuple, tuple, tuple]:
        """(every seat's hand, the draw pile, the removed cards) of one shuffle."""
        view = self.view
        pool = self.pool[:]
        rng.shuffle(pool)
        me = view["viewer"]
        known = self.known
        hands = []
        at = 0
        for seat in view["seats"]:
            if seat["seat"] == me:
                hands.append(self.own)
                continue
            extra = seat["hand_size"] - len(known[seat["seat"]])
            hands.append(tuple(sorted(known[seat["seat"]] + pool[at : at + extra])))
            at += extra
        deck = tuple(pool[at : at + view["deck_size"]])
        return tuple(hands), deck, tuple(pool[at + view["deck_size"] :])

    def state(self, rng) -> CardState:
        """A full state consistent with the view, hidden cards dealt uniformly at random."""
        return self._state(*self._deal(rng))

    def sim(self, rng) -> CardSim:
        """The position of `state(rng)` (the same deal for the same rng)."""
        hands, deck, removed = self._deal(rng)
        if self.template is None:
            self.template = CardSim.of(self._state(hands, deck, removed))
        return self.template.dealt(hands, deck)

    def _state(self, hands: tuple, deck: tuple, removed: tuple) -> CardState:
        view = self.view
        state = object.__new__(CardState)
        state.setup = Setup(view["players"], {}, deck, removed)
        board = state.board = object.__new__(Board)
        state.deck_pos = 0
        state.hands = hands
        state.shown = tuple(tuple(sorted(cards)) for cards in self.known)
        rows, statuses, held = [], [], []
        for seat in view["seats"]:
            seat_rows = [tuple(_kinds(seat["rows"][c]["cards"])) for c in COLOURS]
            statuses.append(tuple(_status(cards) for cards in seat_rows))
            rows.append((*seat_rows, tuple(_kinds(seat["point_row"]))))
            held.append(sum(1 << v for v in seat["stones"]))
        board.rows = tuple(rows)
        board.row_status = tuple(statuses)
        state.piles = tuple(tuple(_kinds(view["piles"][name])) for name in ROWS)
        board.stones_table = sum(1 << v for v in view["stones_on_table"])
        board.stones_held = tuple(held)
        board.closed_rows = view["closed_rows"]
        state.to_move = view["to_move"]
        state.step = view["step"]
        state.draws_owed = view["draws_owed"]
        state.banned = sum(1 << ROW_INDEX[name] for name in view["banned_piles"])
        final = view["final_round"]
        board.ender = final and final["ended_by"]
        board.end_reason = final and final["reason"]
        board.final_left = final["turns_left"] if final else 0
        board.laid_in_final = final["laid_this_turn"] if final else 0
        state.turns = view["turns"]
        state.idle_run = view["idle_turns"]
        state.progressed = view["progressed"]
        state._legal = None
        return state


def determinize(view: dict, rng) -> CardState:
    """A full state consistent with `view`, hidden cards dealt uniformly at random."""
    return Dealer(view).state(rng)


def step(state, move, chance=None):
    """The state after the seat to move plays `move` (a legal move)."""
    for event in decide(state, state.to_move, move):
        state = REDUCERS[event["type"]](state, event)
    return state


def estimate(state: CardState, seat: int) -> float:
    """The seat's score now plus what its hand and the turns left promise
    (`domain.search.card_sim.estimate` on the state's position)."""
    return card_sim.estimate(CardSim.of(state), seat)


__all__ = ["Dealer", "determinize", "estimate", "step", "unseen"]
