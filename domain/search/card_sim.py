"""A fast keltis-card position for the search: the rules of a turn (P1-P4, D1-D2, E1-E5) on
plain lists, changed in place by `play(code)`, and `estimate` on it.

It holds only what the search reads: each seat's row lengths and statuses (not the cards
laid), hands as sorted lists, the discard piles, stone counts. No events, commands or new
states per move: a move is a few list operations. tests/domain/search/test_card_sim.py
checks it against `decide` and `evolve` move by move.
"""

from __future__ import annotations

from bisect import insort

from domain.card.cards import POINT_BASE
from domain.card.commands import DRAW_BASE, LAY_BASE, STOP_CODE, WISH_BASE
from domain.card.scoring import ROW_POINTS, STONE_POINTS
from domain.card.state import CLOSED, DRAW, EMPTY, FINAL_ROUND, FINISHED, NEXT_STATUS, PLAY
from domain.endless import IDLE_TURNS, TURN_LIMIT, counts_after_turn, service_ending

FIFTH_ROW = 5
DECK_SOURCE = 6
# Hand-set; least squares on self-play (scripts/fit_card_estimate.py) predicts final scores
# better (FIT_SHARE 1.05, GROWTH 0.175) but made the search play worse (README).
FIT_SHARE = 0.4  # share of the hand's fitting cards expected to be laid
FINAL_FIT_SHARE = 0.3  # ... in the final round (E3: at most two lays)
FIT_TURNS = 2.0  # turns left below which the share slides down to the final round's
GROWTH = 0.15  # cards of a colour a seat lays per turn left, with the row's whole room
# What an idle turn of the seat's own costs it (E4): IDLE_COST points times the idle run
# it extends, over IDLE_TURNS. An idle turn spends the game's turns without a lay or a card
# from the draw pile; valued at nothing, the search (which deals the other hands at random,
# so it always thinks its own hand the better one) would rather cycle the discard piles
# than draw the last card and start the final round. The first idle turns of a run (a good
# card taken from a pile) cost little; a long run, a stalemate E4 ends anyway, costs a lot.
IDLE_COST = 10.0
_POINTS = (*ROW_POINTS, *[10] * 20)
_PILE = tuple(5 if k >= POINT_BASE else k // 12 for k in range(71))
_COLOUR = tuple(-1 if k >= POINT_BASE else k // 12 for k in range(71))
_FACE = tuple(-1 if k >= POINT_BASE else k % 12 for k in range(71))


def _room(status: int) -> int:
    """How many more colour values an open row can still take in its direction."""
    direction, last = divmod(status - 1, 11)
    if direction == 1:
        return 11 - last
    if direction == 2:
        return last + 1
    return max(11 - last, last + 1)


ROOM = tuple(11 if s == EMPTY else _room(s) if s < CLOSED else 0 for s in range(36))


class CardSim:
    """A mutable keltis-card position. Per seat: `hands[s]` sorted kinds, `status[s]` the
    five colour rows' statuses, `counts[s]` the six rows' lengths (5: the point row),
    `held[s]` wishing stones held; `piles` the six discard piles (top last), `deck[pos:]`
    the draw pile; `seat` to move (None once finished) and `step` as in `CardState`."""

    __slots__ = (
        "banned",
        "closed",
        "counts",
        "deck",
        "final_left",
        "hands",
        "held",
        "idle",
        "idle_by",  # the points each seat's idle turns cost it since the position was dealt
        "laid",
        "owed",
        "piles",
        "players",
        "pos",
        "progressed",
        "seat",
        "status",
        "step",
        "table",
        "turns",
    )

    @classmethod
    def of(cls, state) -> CardSim:
        """The position of a `CardState`."""
        sim = object.__new__(cls)
        sim.players = state.setup.players
        sim.deck = state.setup.deck
        sim.pos = state.deck_pos
        sim.hands = [list(hand) for hand in state.hands]
        sim.status = [list(rows) for rows in state.row_status]
        sim.counts = [[len(row) for row in rows] for rows in state.rows]
        sim.held = [bin(mask).count("1") for mask in state.stones_held]
        sim.piles = [list(pile) for pile in state.piles]
        sim.table = state.stones_table
        sim.closed = state.closed_rows
        sim.seat = state.to_move
        sim.step = state.step
        sim.owed = state.draws_owed
        sim.banned = state.banned
        sim.final_left = state.final_left
        sim.laid = state.laid_in_final
        sim.turns = state.turns
        sim.idle = state.idle_run
        sim.idle_by = [0.0] * sim.players
        sim.progressed = state.progressed
        return sim

    def dealt(self, hands: tuple, deck: tuple) -> CardSim:
        """A copy with other hands (sorted kinds) and a fresh draw pile `deck`."""
        sim = self.copy()
        sim.hands = [list(hand) for hand in hands]
        sim.deck = deck
        sim.pos = 0
        return sim

    def copy(self) -> CardSim:
        sim = object.__new__(CardSim)
        sim.players = self.players
        sim.deck = self.deck
        sim.pos = self.pos
        sim.hands = [hand[:] for hand in self.hands]
        sim.status = [rows[:] for rows in self.status]
        sim.counts = [rows[:] for rows in self.counts]
        sim.held = self.held[:]
        sim.piles = [pile[:] for pile in self.piles]
        sim.table = self.table
        sim.closed = self.closed
        sim.seat = self.seat
        sim.step = self.step
        sim.owed = self.owed
        sim.banned = self.banned
        sim.final_left = self.final_left
        sim.laid = self.laid
        sim.turns = self.turns
        sim.idle = self.idle
        sim.idle_by = self.idle_by[:]
        sim.progressed = self.progressed
        return sim

    def stuck(self) -> bool:
        """Whether the seat to move has no legal move: the game is over, or (in a made-up
        position only) it is to play and holds no card."""
        step = self.step
        return step == FINISHED or (step == PLAY and not self.hands[self.seat])

    def play(self, code: int) -> None:
        """Play the move of `code` (legal for the seat to move; `domain.card.commands`)."""
        seat = self.seat
        if code < LAY_BASE:  # P1
            self.hands[seat].remove(code)
            pile = _PILE[code]
            self.piles[pile].append(code)
            self.banned |= 1 << pile
            self.step = DRAW
            self.owed = 1
            self.progressed = False
        elif code < WISH_BASE:
            self._lay(seat, *divmod(code - LAY_BASE, 6))
        elif code < DRAW_BASE:  # P2
            low, high = divmod(code - WISH_BASE, 71)
            hand = self.hands[seat]
            for kind in (low, high):
                hand.remove(kind)
                pile = _PILE[kind]
                self.piles[pile].append(kind)
                self.banned |= 1 << pile
            self.table &= ~(1 << (low - POINT_BASE if low >= POINT_BASE else low % 12))
            self.held[seat] += 1
            self.step = DRAW
            self.owed = 2
            self.progressed = True
        elif code < STOP_CODE:
            self._draw(seat, code - DRAW_BASE)
        else:  # E3
            self._end_turn_in_final()

    def _lay(self, seat: int, kind: int, row: int) -> None:
        """P3, P4; E1 when the lay closes the fifth row; E3 in the final round."""
        self.hands[seat].remove(kind)
        self.counts[seat][row] += 1
        closed_now = False
        if kind < POINT_BASE:
            status = self.status[seat]
            before = status[row]
            after = status[row] = NEXT_STATUS[before][kind % 12]
            if after == CLOSED and before != CLOSED:
                self.closed += 1
                closed_now = True
        if self.step == PLAY:
            self.progressed = True
            if closed_now and self.closed >= FIFTH_ROW:
                self._start_final(seat)
            else:
                self.step = DRAW
                self.owed = 1
        else:
            self.laid += 1
            if self.laid >= 2:
                self._end_turn_in_final()

    def _draw(self, seat: int, source: int) -> None:
        """D1; E2 after the draw pile's last card; E4, E5 after a turn's last draw."""
        if source == DECK_SOURCE:
            kind = self.deck[self.pos]
            self.pos += 1
            self.progressed = True
        else:
            kind = self.piles[source].pop()
        insort(self.hands[seat], kind)
        self.owed -= 1
        ending = None
        if self.owed <= 0:
            self.turns, self.idle = counts_after_turn(self.turns, self.idle, self.progressed)
            if not self.progressed:
                self.idle_by[seat] += IDLE_COST * self.idle / IDLE_TURNS
            ending = service_ending(self.turns, self.idle)
            self.step = PLAY
            self.banned = 0
            self.seat = (seat + 1) % self.players
        if ending is not None or (source == DECK_SOURCE and self.pos >= len(self.deck)):
            self._start_final(seat)

    def _start_final(self, by_seat: int) -> None:
        self.step = FINAL_ROUND
        self.owed = 0
        self.banned = 0
        self.final_left = self.players
        self.laid = 0
        self.seat = (by_seat + 1) % self.players

    def _end_turn_in_final(self) -> None:
        self.laid = 0
        self.final_left -= 1
        if self.final_left <= 0:
            self.step = FINISHED
            self.seat = None
        else:
            self.seat = (self.seat + 1) % self.players

    def score(self, seat: int) -> int:
        """K1-K3: the seat's score now."""
        counts = self.counts[seat]
        total = counts[5] + STONE_POINTS[min(self.held[seat], 5)]
        return total + sum(ROW_POINTS[min(n, 9)] for n in counts[:5])


def turns_left(sim: CardSim) -> float:
    """Each seat's turns left before the final round at most: the draw pile's cards (E2),
    the idle turns left (E4) and the turns left (E5), shared among the seats."""
    left = min(len(sim.deck) - sim.pos, IDLE_TURNS - sim.idle, TURN_LIMIT - sim.turns)
    return max(0, left) / sim.players


def estimate(sim: CardSim, seat: int) -> float:
    """The seat's score now plus what its hand and the turns left promise: cards that fit
    its open rows, and a share of the turns left spread over them; less the idle turns it
    played since the position was dealt."""
    counts = sim.counts[seat]
    status = sim.status[seat]
    step = sim.step
    if step == FINISHED:
        turns, fit_share = 0.0, 0.0
    elif step == FINAL_ROUND:
        turns, fit_share = 0.0, FINAL_FIT_SHARE
    else:
        turns = turns_left(sim)
        fit_share = FINAL_FIT_SHARE + (FIT_SHARE - FINAL_FIT_SHARE) * min(1.0, turns / FIT_TURNS)
    fits = [0, 0, 0, 0, 0]
    point_cards = 0
    for kind in sim.hands[seat]:
        if kind >= POINT_BASE:
            point_cards += 1
        else:
            colour = _COLOUR[kind]
            if NEXT_STATUS[status[colour]][_FACE[kind]] >= 0:
                fits[colour] += 1
    total = counts[5] + STONE_POINTS[min(sim.held[seat], 5)] - sim.idle_by[seat]
    total += fit_share * point_cards
    growth = GROWTH * turns
    for colour in range(5):
        count = counts[colour]
        row = status[colour]
        if row >= CLOSED:
            total += _POINTS[count]
            continue
        room = ROOM[row]
        expected = count + min(1.4 * room, fit_share * fits[colour] + growth * room / 11)
        low = int(expected)
        points = _POINTS[low] + (expected - low) * (_POINTS[low + 1] - _POINTS[low])
        total += max(0.0, points) if count == 0 else points
    return total
