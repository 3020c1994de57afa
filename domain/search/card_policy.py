"""The legal moves and the greedy bot of keltis-card on a `CardSim`: the codes in the order
`domain.card.commands.legal_options` lists them and greedy's score of each, in one pass.

The scores are `domain.card.bots.greedy_scores` over the seat's view, bit for bit: the
formulas keep greedy's order of operations, and the tables below are greedy's expressions
evaluated ahead (the same floats). `greedy_code` breaks ties as `greedy_bot` does (one
`rng.random()` per legal move, in order), so it plays the same move for the same rng.
tests/domain/search/test_card_policy.py checks both on random positions.
"""

from __future__ import annotations

from domain.card.cards import POINT_BASE
from domain.card.commands import DRAW_BASE, LAY_BASE, STOP_CODE, WISH_BASE
from domain.card.scoring import row_points, stone_points
from domain.card.state import CLOSED, DRAW, EMPTY, FINAL_ROUND, LAST_VALUE, NEXT_STATUS, PLAY

_END = 11
_DECK_CODE = DRAW_BASE + 6
_NO_GAP = -2  # the row cannot take the value (closed or the wrong way)


def _gap(status: int, value: int) -> int:
    """`bots._gap` on a status: _NO_GAP, -1 (empty row) or the distance in its direction."""
    if status >= CLOSED:
        return _NO_GAP
    if status == EMPTY:
        return -1
    direction, last = divmod(status - 1, 11)
    if direction == 1:
        return value - last if value >= last else _NO_GAP
    if direction == 2:
        return last - value if value <= last else _NO_GAP
    return abs(value - last)


GAP = tuple(tuple(_gap(s, v) for v in range(11)) for s in range(36))
# keep_value of a number card on an open or closed row (an empty one depends on the hand).
KEEP = tuple(
    tuple(0.0 if g == _NO_GAP else max(0.0, 2.5 - 0.4 * g) for g in GAP[s]) for s in range(36)
)
KEEP_EMPTY = tuple(0.4 + 0.3 * n for n in range(20))  # by the colour's number cards in hand
KEEP_POINT = (1.2 + 0.0, 1.2 + 1.0)  # by whether an open row ends in the card's value
# Whether an opponent's row of that status would take the value next (0 <= gap <= 1).
FEEDS = tuple(tuple(0 <= g <= 1 for g in GAP[s]) for s in range(36))
DELTA = tuple(row_points(n + 1) - row_points(n) for n in range(40))
POINT_ON_ROW = tuple(d + 2.0 for d in DELTA)
WISH_GAIN = tuple(stone_points(h + 1) - stone_points(h) + 1.5 for h in range(12))
_FACE = tuple(-1 if k >= POINT_BASE else k % 12 for k in range(71))
# The value greedy pairs with a stone: a number card's or a point card's; None for an end.
_VALUE = tuple(
    k - POINT_BASE if k >= POINT_BASE else (None if k % 12 == _END else k % 12) for k in range(71)
)
_WISH_VALUE = tuple(v if v is not None and 1 <= v <= 9 else 0 for v in _VALUE)


class _Hand:
    """The seat to move's rows and hand as greedy reads them."""

    __slots__ = ("counts", "hand", "opponents", "same", "status")

    def __init__(self, sim, seat: int):
        self.hand = sim.hands[seat]
        self.status = sim.status[seat]
        self.counts = sim.counts[seat]
        self.opponents = [sim.status[s] for s in range(sim.players) if s != seat]
        same: list[list[int]] = [[], [], [], [], []]
        for kind in self.hand:
            if kind < POINT_BASE:
                face = kind % 12
                if face != _END:
                    same[kind // 12].append(face)
        self.same = same  # each colour's number-card values in hand

    def keep(self, kind: int) -> float:
        """greedy's keep_value of a card."""
        if kind >= POINT_BASE:
            value = kind - POINT_BASE
            for status in self.status:
                if LAST_VALUE[status] == value:
                    return KEEP_POINT[1]
            return KEEP_POINT[0]
        colour, face = divmod(kind, 12)
        status = self.status[colour]
        if face == _END:
            if status >= CLOSED:
                return 2.0
            return 1.5 if self.counts[colour] >= 3 else 0.2
        if status == EMPTY:
            return KEEP_EMPTY[len(self.same[colour])]
        return KEEP[status][face]

    def feeds(self, kind: int) -> float:
        if kind >= POINT_BASE:
            return 0.5
        colour, face = divmod(kind, 12)
        if face == _END:
            return 0.0
        for rows in self.opponents:
            if FEEDS[rows[colour]][face]:
                return 0.8
        return 0.0

    def lay(self, kind: int, late: bool) -> float:
        """greedy's lay_score of a colour card on its row."""
        colour, face = divmod(kind, 12)
        status = self.status[colour]
        count = self.counts[colour]
        delta = DELTA[count]
        same = self.same[colour]
        if face == _END:
            if status >= CLOSED:
                return delta + 1.0
            if count == 0:
                return -6.0
            gaps = GAP[status]
            potential = sum(1 for v in same if gaps[v] != _NO_GAP)
            return delta - 1.2 * potential + (2.0 if late else -0.5)
        gap = GAP[status][face]
        if gap == _NO_GAP:
            return -10.0
        if gap < 0:
            followers = [v for v in same if v != face]
            if face <= 5:
                fitting = sum(1 for v in followers if v >= face)
            else:
                fitting = sum(1 for v in followers if v <= face)
            edge = min(face, 10 - face)
            penalty = 3.0 if late else 0.0
            return -2.8 + 1.1 * fitting - 0.35 * edge - penalty
        stranded = 0
        last = LAST_VALUE[status]
        undecided = (status - 1) // 11 == 0
        for v in same:
            if v == face:
                continue
            between = last <= v < face or face < v <= last
            behind = undecided and (v - last) * (face - last) < 0
            stranded += between or behind
        return delta + 2.0 - 0.7 * gap - 0.9 * stranded


def _play_options(sim, seat: int) -> tuple[list[int], list[float]]:
    view = _Hand(sim, seat)
    hand = view.hand
    status = view.status
    late = len(sim.deck) - sim.pos < 8
    distinct = list(dict.fromkeys(hand))
    keeps = {kind: view.keep(kind) for kind in distinct}
    codes = distinct[:]
    scores = [-0.5 - keeps[kind] - view.feeds(kind) for kind in distinct]
    table = sim.table
    wishable = [kind for kind in hand if table >> _WISH_VALUE[kind] & 1]
    if len(wishable) > 1:
        gain = WISH_GAIN[sim.held[seat]]
        seen = set()
        for i, low in enumerate(wishable):
            value = _WISH_VALUE[low]
            for high in wishable[i + 1 :]:
                if _WISH_VALUE[high] == value:
                    code = WISH_BASE + low * 71 + high
                    if code not in seen:
                        seen.add(code)
                        codes.append(code)
                        scores.append(gain - (keeps[low] + keeps[high]) + 0.3)
    counts = view.counts
    for kind in distinct:
        if kind < POINT_BASE:
            colour = kind // 12
            if NEXT_STATUS[status[colour]][kind % 12] >= 0:
                codes.append(LAY_BASE + kind * 6 + colour)
                scores.append(view.lay(kind, late))
        else:
            value = kind - POINT_BASE
            base = LAY_BASE + kind * 6
            for row in range(5):
                if LAST_VALUE[status[row]] == value:
                    codes.append(base + row)
                    scores.append(POINT_ON_ROW[counts[row]])
            codes.append(base + 5)
            scores.append(1.0)
    return codes, scores


def _draw_options(sim, seat: int) -> tuple[list[int], list[float]]:
    codes = [_DECK_CODE]
    scores = [1.0]
    piles = sim.piles
    banned = sim.banned
    view = None
    for pile in range(6):
        if banned >> pile & 1 or not piles[pile]:
            continue
        if view is None:
            view = _Hand(sim, seat)
        top = piles[pile][-1]
        score = view.keep(top)
        value = _VALUE[top]
        if value is not None and sim.table >> value & 1:
            for kind in view.hand:
                if _VALUE[kind] == value:
                    score += 1.5
                    break
        codes.append(DRAW_BASE + pile)
        scores.append(score)
    return codes, scores


def _final_options(sim, seat: int) -> tuple[list[int], list]:
    hand = sim.hands[seat]
    codes: list[int] = []
    scores: list = []
    status = sim.status[seat]
    counts = sim.counts[seat]
    for kind in dict.fromkeys(hand):
        if kind < POINT_BASE:
            colour = kind // 12
            if NEXT_STATUS[status[colour]][kind % 12] >= 0:
                codes.append(LAY_BASE + kind * 6 + colour)
                scores.append(DELTA[counts[colour]])
        else:
            value = kind - POINT_BASE
            base = LAY_BASE + kind * 6
            for row in range(5):
                if LAST_VALUE[status[row]] == value:
                    codes.append(base + row)
                    scores.append(DELTA[counts[row]])
            codes.append(base + 5)
            scores.append(1.0)
    codes.append(STOP_CODE)
    scores.append(0.0)
    return codes, scores


def options(sim) -> tuple[list[int], list]:
    """(the legal codes of the seat to move in `legal_options` order, greedy's scores)."""
    step = sim.step
    if step == PLAY:
        return _play_options(sim, sim.seat)
    if step == DRAW:
        return _draw_options(sim, sim.seat)
    if step == FINAL_ROUND:
        return _final_options(sim, sim.seat)
    return [], []


def greedy_code(sim, rng) -> int:
    """Greedy's move for the seat to move: the best score, ties broken by `rng` exactly as
    `greedy_bot` breaks them (one draw per legal move, in order; none for a single one)."""
    codes, scores = options(sim)
    if len(codes) == 1:
        return codes[0]
    random = rng.random
    best = codes[0]
    best_score = scores[0]
    best_draw = random()
    for i in range(1, len(codes)):
        score = scores[i]
        draw = random()
        if score > best_score or (score == best_score and draw > best_draw):
            best, best_score, best_draw = codes[i], score, draw
    return best
