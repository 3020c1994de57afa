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
_NEVER = float("-inf")  # the score of a move pruned from greedy's choice


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
# A kind's colour and face (0-10, 11 an end card); -1 for a point card.
_COLOUR = tuple(-1 if k >= POINT_BASE else k // 12 for k in range(71))
_FACE = tuple(-1 if k >= POINT_BASE else k % 12 for k in range(71))
# The value greedy pairs with a stone: a number card's or a point card's; None for an end.
_VALUE = tuple(
    k - POINT_BASE if k >= POINT_BASE else (None if k % 12 == _END else k % 12) for k in range(71)
)
_WISH_VALUE = tuple(v if v is not None and 1 <= v <= 9 else 0 for v in _VALUE)


def _stranded(status: int, face: int, v: int) -> int:
    """Whether laying `face` on an open row leaves the hand's `v` behind (lay_score)."""
    if not EMPTY < status < CLOSED or v == face:
        return 0
    last = LAST_VALUE[status]
    between = last <= v < face or face < v <= last
    behind = (status - 1) // 11 == 0 and (v - last) * (face - last) < 0
    return int(between or behind)


# lay_score's counts over the colour's number cards in hand, as 0/1 per value in hand:
# STRANDED[status][face][v] (v left behind by laying face), FITTING[face][v] (v follows
# face on an empty row), TAKES[status][v] (the row can still take v).
STRANDED = tuple(
    tuple(tuple(_stranded(s, f, v) for v in range(11)) for f in range(11)) for s in range(36)
)
FITTING = tuple(
    tuple(int(v != f and (v >= f if f <= 5 else v <= f)) for v in range(11)) for f in range(11)
)
TAKES = tuple(tuple(int(g != _NO_GAP) for g in GAP[s]) for s in range(36))
# lay_score on an empty row: EMPTY_LAY[late][face][fitting].
EMPTY_LAY = tuple(
    tuple(
        tuple(-2.8 + 1.1 * fitting - 0.35 * min(f, 10 - f) - penalty for fitting in range(20))
        for f in range(11)
    )
    for penalty in (0.0, 3.0)
)


# The colour of a number card (-1: an end or point card); a colour card's lay code.
_SLOT = tuple(-1 if k >= POINT_BASE or k % 12 == _END else k // 12 for k in range(71))
_LAY = tuple(LAY_BASE + k * 6 + (k // 12 if k < POINT_BASE else 0) for k in range(71))


def _keep(kind: int, status: list, counts: list, same: list) -> float:
    """greedy's keep_value of a card for the seat of `status` and `counts`, whose hand's
    number cards by colour are `same` (`_same_by_colour`)."""
    if kind >= POINT_BASE:
        value = kind - POINT_BASE
        for row in status:
            if LAST_VALUE[row] == value:
                return KEEP_POINT[1]
        return KEEP_POINT[0]
    colour = _COLOUR[kind]
    face = _FACE[kind]
    row = status[colour]
    if face == _END:
        if row >= CLOSED:
            return 2.0
        return 1.5 if counts[colour] >= 3 else 0.2
    return KEEP_EMPTY[len(same[colour])] if row == EMPTY else KEEP[row][face]


def _same_by_colour(hand: list) -> list[list[int]]:
    """Each colour's number cards in `hand`, by value."""
    same: list[list[int]] = [[], [], [], [], []]
    for kind in hand:
        slot = _SLOT[kind]
        if slot >= 0:
            same[slot].append(kind - slot * 12)
    return same


def _play_options(sim, seat: int, prune: bool = False) -> tuple[list[int], list[float]]:
    """The play step: discards, wishes, lays (`commands.legal_commands` order). With
    `prune`, every discard scores -inf when a wish or lay scores above -0.5 (no discard
    does): the best move is the same, the scores of the discards are not greedy's."""
    hand = sim.hands[seat]
    status = sim.status[seat]
    counts = sim.counts[seat]
    same = _same_by_colour(hand)
    distinct = list(dict.fromkeys(hand))
    codes: list[int] = []
    scores: list[float] = []
    table = sim.table
    wishable = [kind for kind in hand if table >> _WISH_VALUE[kind] & 1]
    if len(wishable) > 1:
        gain = WISH_GAIN[sim.held[seat]]
        keeps: dict[int, float] = {}
        for i, low in enumerate(wishable):
            value = _WISH_VALUE[low]
            for high in wishable[i + 1 :]:
                if _WISH_VALUE[high] == value:
                    code = WISH_BASE + low * 71 + high
                    if code not in codes:
                        for kind in (low, high):
                            if kind not in keeps:
                                keeps[kind] = _keep(kind, status, counts, same)
                        codes.append(code)
                        scores.append(gain - (keeps[low] + keeps[high]) + 0.3)
    late = len(sim.deck) - sim.pos < 8
    for kind in distinct:
        if kind >= POINT_BASE:
            value = kind - POINT_BASE
            base = LAY_BASE + kind * 6
            for row in range(5):
                if LAST_VALUE[status[row]] == value:
                    codes.append(base + row)
                    scores.append(POINT_ON_ROW[counts[row]])
            codes.append(base + 5)
            scores.append(1.0)
            continue
        colour = _COLOUR[kind]
        face = _FACE[kind]
        row = status[colour]
        if NEXT_STATUS[row][face] < 0:
            continue
        codes.append(_LAY[kind])
        if face == _END:
            count = counts[colour]
            if row >= CLOSED:
                scores.append(DELTA[count] + 1.0)
            elif count == 0:
                scores.append(-6.0)
            else:
                takes = TAKES[row]
                potential = 0
                for v in same[colour]:
                    potential += takes[v]
                scores.append(DELTA[count] - 1.2 * potential + (2.0 if late else -0.5))
        elif row == EMPTY:
            fits = FITTING[face]
            fitting = 0
            for v in same[colour]:
                fitting += fits[v]
            scores.append(EMPTY_LAY[late][face][fitting])
        else:
            strands = STRANDED[row][face]
            stranded = 0
            for v in same[colour]:
                stranded += strands[v]
            scores.append(DELTA[counts[colour]] + 2.0 - 0.7 * GAP[row][face] - 0.9 * stranded)
    if prune and scores and max(scores) > -0.5:
        return distinct + codes, [_NEVER] * len(distinct) + scores
    discards: list[float] = []
    opponents = None
    for kind in distinct:
        if kind >= POINT_BASE:
            discards.append(-0.5 - _keep(kind, status, counts, same) - 0.5)
            continue
        colour = _COLOUR[kind]
        face = _FACE[kind]
        row = status[colour]
        feeds = 0.0
        if face == _END:
            keep = 2.0 if row >= CLOSED else 1.5 if counts[colour] >= 3 else 0.2
        else:
            keep = KEEP_EMPTY[len(same[colour])] if row == EMPTY else KEEP[row][face]
            if opponents is None:
                all_status = sim.status
                opponents = [all_status[s] for s in range(sim.players) if s != seat]
            for rows in opponents:
                if FEEDS[rows[colour]][face]:
                    feeds = 0.8
                    break
        discards.append(-0.5 - keep - feeds)
    return distinct + codes, discards + scores


def _draw_options(sim, seat: int) -> tuple[list[int], list[float]]:
    """The draw step: the deck, then every pile neither banned nor empty."""
    codes = [_DECK_CODE]
    scores = [1.0]
    piles = sim.piles
    banned = sim.banned
    hand = sim.hands[seat]
    same = _same_by_colour(hand)
    for pile in range(6):
        if banned >> pile & 1 or not piles[pile]:
            continue
        top = piles[pile][-1]
        score = _keep(top, sim.status[seat], sim.counts[seat], same)
        value = _VALUE[top]
        if value is not None and sim.table >> value & 1:
            for kind in hand:
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
    if sim.step == PLAY:
        codes, scores = _play_options(sim, sim.seat, prune=True)
    else:
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
