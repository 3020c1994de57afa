"""Bots of keltis-card: pure policies `bot(view, legal_moves, rng) -> move` over one seat's
view (`domain.card.view.view`), never the hidden state.

- `random`: uniform over the legal moves.
- `greedy`: scores every legal move with a one-step heuristic (row growth per K1, small gaps
  in a row's direction, wishing stones per K3, point cards, not feeding opponents' rows,
  taking useful pile tops) and plays the best; ties are broken by `rng`.
"""

from __future__ import annotations

from domain.card.cards import COLOURS, NAMES
from domain.card.scoring import row_points, stone_points

_DECK_DRAW_VALUE = 1.0


def random_bot(view: dict, legal_moves: list, rng) -> dict:
    """Uniform over the legal moves."""
    return legal_moves[rng.randrange(len(legal_moves))]


def _split(name: str) -> tuple[str, int | None]:
    kind, _, value = name.rpartition("-")
    return kind, None if value == "end" else int(value)


_PARSED = {name: _split(name) for name in NAMES if name}


def _parse(name: str) -> tuple[str, int | None]:
    """('blue', 7) / ('blue', None) for an end card / ('point', 5)."""
    found = _PARSED.get(name)
    return found if found is not None else _split(name)


def _last_value(cards: list[str]) -> int | None:
    for name in reversed(cards):
        value = _parse(name)[1]
        if value is not None:
            return value
    return None


def _gap(row: dict, value: int) -> int | None:
    """How far `value` lies beyond the row's last value in its direction; None if it
    cannot be laid (closed row or wrong direction); -1 for an empty row."""
    if row["closed"]:
        return None
    last = _last_value(row["cards"])
    if last is None:
        return -1
    direction = row["direction"]
    if direction == "ascending":
        return value - last if value >= last else None
    if direction == "descending":
        return last - value if value <= last else None
    return abs(value - last)


class _Context:
    """What the greedy bot derives from one view."""

    def __init__(self, view: dict):
        self.view = view
        me = view["seats"][view["viewer"]]
        self.rows = me["rows"]
        self.point_row = me["point_row"]
        self.stones_held = len(me["stones"])
        self.stones_on_table = set(view["stones_on_table"])
        self.hand = [_parse(name) for name in view["hand"]]
        self.opponents = [s for s in view["seats"] if s["seat"] != view["viewer"]]
        self.late = view["deck_size"] < 8

    def same_colour(self, colour: str) -> list[int]:
        return [v for c, v in self.hand if c == colour and v is not None]

    def keep_value(self, colour: str, value: int | None) -> float:
        """How useful a card is to keep in hand."""
        if colour == "point":
            matches = any(_gap(r, value) == 0 and r["cards"] for r in self.rows.values())
            return 1.2 + (1.0 if matches else 0.0)
        row = self.rows[colour]
        count = len(row["cards"])
        if value is None:
            if row["closed"]:
                return 2.0
            return 1.5 if count >= 3 else 0.2
        gap = _gap(row, value)
        if gap is None:
            return 0.0
        if gap < 0:
            return 0.4 + 0.3 * len(self.same_colour(colour))
        return max(0.0, 2.5 - 0.4 * gap)

    def feeds(self, colour: str, value: int | None) -> float:
        """How much a discard would help an opponent."""
        if colour == "point":
            return 0.5
        if value is None:
            return 0.0
        for seat in self.opponents:
            gap = _gap(seat["rows"][colour], value)
            if gap is not None and 0 <= gap <= 1 and seat["rows"][colour]["cards"]:
                return 0.8
        return 0.0

    def lay_score(self, colour: str, value: int | None, row_name: str) -> float:
        if row_name == "point":
            return 1.0
        row = self.rows[row_name]
        count = len(row["cards"])
        delta = row_points(count + 1) - row_points(count)
        if colour == "point":
            return delta + 2.0
        if value is None:
            if row["closed"]:
                return delta + 1.0
            if count == 0:
                return -6.0
            potential = sum(1 for v in self.same_colour(colour) if _gap(row, v) is not None)
            return delta - 1.2 * potential + (2.0 if self.late else -0.5)
        gap = _gap(row, value)
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
        last = _last_value(row["cards"])
        for v in self.same_colour(colour):
            if v == value:
                continue
            between = last <= v < value or value < v <= last
            behind = row["direction"] is None and (v - last) * (value - last) < 0
            stranded += between or behind
        return delta + 2.0 - 0.7 * gap - 0.9 * stranded

    def play_score(self, move: dict) -> float:
        action = move["action"]
        if action == "lay":
            colour, value = _parse(move["card"])
            return self.lay_score(colour, value, move.get("row", colour))
        if action == "wish":
            stones = self.stones_held
            gain = stone_points(stones + 1) - stone_points(stones) + 1.5
            cost = sum(self.keep_value(*_parse(card)) for card in move["cards"])
            return gain - cost + 0.3
        colour, value = _parse(move["card"])
        return -0.5 - self.keep_value(colour, value) - self.feeds(colour, value)

    def draw_score(self, move: dict) -> float:
        source = move["source"]
        if source == "deck":
            return _DECK_DRAW_VALUE
        colour, value = _parse(self.view["pile_tops"][source])
        score = self.keep_value(colour, value)
        pairs = value in self.stones_on_table and any(v == value for _, v in self.hand)
        if value is not None and pairs:
            score += 1.5
        return score

    def final_score(self, move: dict) -> float:
        if move["action"] == "stop":
            return 0.0
        colour, _ = _parse(move["card"])
        row_name = move.get("row", colour)
        if row_name == "point":
            return 1.0
        count = len(self.rows[row_name]["cards"])
        return row_points(count + 1) - row_points(count)


def greedy_scores(view: dict, legal_moves: list) -> list[float]:
    """The greedy bot's one-step score of each legal move (the search's prior)."""
    context = _Context(view)
    step = view["step"]
    if step == "draw":
        score = context.draw_score
    elif step == "final_round":
        score = context.final_score
    else:
        score = context.play_score
    return [score(move) for move in legal_moves]


def greedy_bot(view: dict, legal_moves: list, rng) -> dict:
    """The legal move with the best one-step heuristic score."""
    scores = greedy_scores(view, legal_moves)
    return max(zip(scores, legal_moves, strict=True), key=lambda pair: (pair[0], rng.random()))[1]


BOTS = {"random": random_bot, "greedy": greedy_bot}

__all__ = ["BOTS", "COLOURS", "greedy_bot", "random_bot"]
