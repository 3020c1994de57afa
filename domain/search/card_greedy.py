"""The greedy bot of keltis-card on the search's compact state: the same scores as
`domain.card.bots.greedy_scores` over the seat's view, computed from kinds and row statuses
without building a view (several times faster; the search's rollouts spend most of their
time here). The formulas keep greedy's order of operations, so the floats are the same and
the move is the same for the same rng (one `rng.random()` per legal move, as greedy's tie
break draws); tests/domain/search/test_card_search.py checks both on random positions.
"""

from __future__ import annotations

from domain.card.cards import POINT_BASE
from domain.card.commands import DRAW_BASE, LAY_BASE, STOP_CODE, WISH_BASE, legal_options
from domain.card.scoring import row_points, stone_points
from domain.card.state import CLOSED, DRAW, EMPTY, FINAL_ROUND, LAST_VALUE, PLAY

_DECK = DRAW_BASE + 6
_KINDS = 71
_END = 11
_POINT = 5  # colour index of a point card here (its row)


def _gap(status: int, value: int):
    """`bots._gap` on a row status: None (closed or wrong way), -1 (empty) or the distance."""
    if status >= CLOSED:
        return None
    if status == EMPTY:
        return -1
    direction, last = divmod(status - 1, 11)
    if direction == 1:
        return value - last if value >= last else None
    if direction == 2:
        return last - value if value <= last else None
    return abs(value - last)


class _Seat:
    """What greedy derives from the view of the seat to move, from the compact state."""

    __slots__ = (
        "colours",
        "counts",
        "hand",
        "late",
        "opponents",
        "state",
        "status",
        "stones_held",
    )

    def __init__(self, state, seat: int):
        self.state = state
        self.status = state.row_status[seat]
        self.counts = [len(row) for row in state.rows[seat][:5]]
        self.stones_held = bin(state.stones_held[seat]).count("1")
        self.hand = state.hands[seat]
        self.opponents = [
            state.row_status[other] for other in range(state.setup.players) if other != seat
        ]
        self.late = state.deck_size < 8
        self.colours: dict[int, list[int]] = {}

    def same_colour(self, colour: int) -> list[int]:
        """The values of the hand's number cards of `colour` (end cards left out; a list
        shared between calls: read only)."""
        found = self.colours.get(colour)
        if found is None:
            low = colour * 12
            found = self.colours[colour] = [k - low for k in self.hand if low <= k < low + _END]
        return found

    def keep_value(self, colour: int, value) -> float:
        if colour == _POINT:
            matches = any(LAST_VALUE[s] == value for s in self.status)
            return 1.2 + (1.0 if matches else 0.0)
        status = self.status[colour]
        if value is None:
            if status >= CLOSED:
                return 2.0
            return 1.5 if self.counts[colour] >= 3 else 0.2
        gap = _gap(status, value)
        if gap is None:
            return 0.0
        if gap < 0:
            return 0.4 + 0.3 * len(self.same_colour(colour))
        return max(0.0, 2.5 - 0.4 * gap)

    def feeds(self, colour: int, value) -> float:
        if colour == _POINT:
            return 0.5
        if value is None:
            return 0.0
        for rows in self.opponents:
            gap = _gap(rows[colour], value)
            if gap is not None and 0 <= gap <= 1:
                return 0.8
        return 0.0

    def lay_score(self, colour: int, value, row: int) -> float:
        if row == _POINT:
            return 1.0
        status = self.status[row]
        count = self.counts[row]
        delta = row_points(count + 1) - row_points(count)
        if colour == _POINT:
            return delta + 2.0
        if value is None:
            if status >= CLOSED:
                return delta + 1.0
            if count == 0:
                return -6.0
            potential = sum(1 for v in self.same_colour(colour) if _gap(status, v) is not None)
            return delta - 1.2 * potential + (2.0 if self.late else -0.5)
        gap = _gap(status, value)
        if gap is None:
            return -10.0
        if gap < 0:
            followers = [v for v in self.same_colour(colour) if v != value]
            if value <= 5:
                fitting = sum(1 for v in followers if v >= value)
            else:
                fitting = sum(1 for v in followers if v <= value)
            edge = min(value, 10 - value)
            penalty = 3.0 if self.late else 0.0
            return -2.8 + 1.1 * fitting - 0.35 * edge - penalty
        stranded = 0
        last = LAST_VALUE[status]
        undecided = (status - 1) // 11 == 0
        for v in self.same_colour(colour):
            if v == value:
                continue
            between = last <= v < value or value < v <= last
            behind = undecided and (v - last) * (value - last) < 0
            stranded += between or behind
        return delta + 2.0 - 0.7 * gap - 0.9 * stranded

    def play_score(self, code: int) -> float:
        if code >= WISH_BASE:
            low, high = divmod(code - WISH_BASE, _KINDS)
            stones = self.stones_held
            gain = stone_points(stones + 1) - stone_points(stones) + 1.5
            cost = self.keep_value(*_CARD[low]) + self.keep_value(*_CARD[high])
            return gain - cost + 0.3
        if code >= LAY_BASE:
            kind, row = divmod(code - LAY_BASE, 6)
            return self.lay_score(*_CARD[kind], row)
        colour, value = _CARD[code]
        return -0.5 - self.keep_value(colour, value) - self.feeds(colour, value)

    def draw_score(self, code: int) -> float:
        if code == _DECK:
            return 1.0
        state = self.state
        colour, value = _CARD[state.piles[code - DRAW_BASE][-1]]
        score = self.keep_value(colour, value)
        paired = value is not None and state.stones_table >> value & 1
        if paired and any(_CARD[k][1] == value for k in self.hand):
            score += 1.5
        return score

    def final_score(self, code: int) -> float:
        if code == STOP_CODE:
            return 0.0
        row = (code - LAY_BASE) % 6
        if row == _POINT:
            return 1.0
        count = self.counts[row]
        return row_points(count + 1) - row_points(count)


def _card(kind: int) -> tuple:
    if kind >= POINT_BASE:
        return _POINT, kind - POINT_BASE
    colour, face = divmod(kind, 12)
    return colour, None if face == _END else face


_CARD = tuple(_card(k) for k in range(_KINDS))


def greedy_scores(state, codes) -> list[float]:
    """Greedy's score of each legal move (by code) of the seat to move."""
    seat = _Seat(state, state.to_move)
    step = state.step
    if step == PLAY:
        return [seat.play_score(c) for c in codes]
    if step == DRAW:
        return [seat.draw_score(c) for c in codes]
    if step == FINAL_ROUND:
        return [seat.final_score(c) for c in codes]
    return [0.0] * len(codes)


def greedy_move(state, rng):
    """Greedy's move for the seat to move: the best score, ties broken by `rng` exactly as
    `domain.card.bots.greedy_bot` breaks them (one draw per legal move, in order)."""
    codes, moves = legal_options(state)
    if len(moves) == 1:
        return moves[0]
    scores = greedy_scores(state, codes)
    best, best_key = None, None
    for score, move in zip(scores, moves, strict=True):
        key = (score, rng.random())
        if best_key is None or key > best_key:
            best, best_key = move, key
    return best
