"""Bots for keltis-dice: `bot(view, legal_moves, rng) -> move`, over the public view only.

- `random_bot`: uniform over the legal moves.
- `greedy_bot`: values each colour by the points a move gains now (field values, the bonus
  it lands on, a marker's future worth when it starts a path, the end of the game when the
  move triggers it); rerolls the dice that do not help the best colour, by exact odds.
"""

from __future__ import annotations

import random
from functools import cache
from math import comb

from domain.dice.board import COLORS, load_board
from domain.dice.scoring import tile_points

STONE_FACE = "stone"
CLOVER_WORTH = 2.5  # one more field on the best path, roughly
KOBOLD_WORTH = 5.0  # a whole extra turn
NEW_PATH_WORTH = (7.0, 5.0, 2.0, 0.0)  # future worth of a path started as marker 1..4
END_WORTH = 100.0  # ending the game when ahead (or not, when behind)


def random_bot(view: dict, legal_moves: list, rng: random.Random) -> dict:
    """Any legal move, uniformly."""
    return rng.choice(legal_moves)


def greedy_bot(view: dict, legal_moves: list, rng: random.Random) -> dict:
    """A sensible one-ply player (see the module docstring)."""
    step = view["stage"]
    if step == "roll":
        return _roll_choice(view, legal_moves)
    steps = 1 if step == "clover" else None
    best, best_value = {"action": "pass"}, 0.0
    for move in legal_moves:
        if move["action"] == "pass":
            continue
        color = move["color"]
        count = steps if steps is not None else view["dice"].count(color)
        value = _move_value(view, COLORS.index(color), count)
        if value is not None and value > best_value:
            best, best_value = move, value
    return best


def _move_value(view: dict, path: int, steps: int) -> float | None:
    """Points a move of `steps` fields on `path` is worth to the seat to move (None: illegal)."""
    board = load_board(view["board"]["name"])
    me = view["to_move"]
    seat = view["seats"][me]
    markers = seat["markers"]
    field = markers.get(COLORS[path], 0)
    if field == 9 or (field == 0 and seat["markers_left"] == 0) or steps <= 0:
        return None
    target = min(9, field + steps)
    if board.forbidden[path][target]:
        return None
    values = board.values[path]
    gain = float(values[target] - values[field])
    goal = board.goal_from
    if field < goal <= target:
        reached = view["goal_markers"] + 1
        mine = sum(1 for f in markers.values() if f >= goal) + 1
        if reached >= view["goal_threshold"] or mine == 4:
            mine_final = seat["score"] + values[target] - values[field]
            best_other = max(s["score"] for s in view["seats"] if s["seat"] != me)
            return END_WORTH if mine_final > best_other else -END_WORTH
    progress = view["goal_markers"] / view["goal_threshold"]
    if field == 0:
        placed = 4 - seat["markers_left"]
        gain += NEW_PATH_WORTH[placed] * (1.0 - progress)
    else:
        gain += 1.0 * (1.0 - progress) if target < 9 else 0.0
    bonus = board.bonus[path][target]
    if bonus == "stone" and view["supply"] > 0:
        gain += _tile_gain(seat["tiles"])
    elif bonus == "clover":
        gain += CLOVER_WORTH
    elif bonus == "kobold":
        gain += KOBOLD_WORTH
    return gain


def _tile_gain(tiles: int) -> float:
    return float(tile_points(tiles + 1) - tile_points(tiles))


@cache
def _outcomes(rerolled: int) -> tuple[tuple[int, int, float], ...]:
    """(new dice of the target colour, new stones, probability) for `rerolled` fresh dice."""
    result = []
    for hits in range(rerolled + 1):
        for stones in range(rerolled - hits + 1):
            others = rerolled - hits - stones
            ways = comb(rerolled, hits) * comb(rerolled - hits, stones)
            result.append((hits, stones, ways * (1 / 6) ** (hits + stones) * (4 / 6) ** others))
    return tuple(result)


def _roll_choice(view: dict, legal_moves: list) -> dict:
    """Keep, or reroll every die that neither shows the best colour nor a kept stone."""
    dice = view["dice"]
    seat = view["seats"][view["to_move"]]
    tile = _tile_gain(seat["tiles"]) if view["supply"] > 0 else 0.0
    tables = []
    for path in range(len(COLORS)):
        row = [0.0] * 6
        for steps in range(1, 6):
            value = _move_value(view, path, steps)
            row[steps] = max(0.0, value) if value is not None else 0.0
        tables.append(row)
    stones_now = dice.count(STONE_FACE)
    best_keep = max(tables[p][dice.count(c)] for p, c in enumerate(COLORS))
    best_keep += tile if stones_now >= 2 else 0.0
    best_value, best_indexes = best_keep, None
    for path, color in enumerate(COLORS):
        hits_now = dice.count(color)
        for keep_stones in (True, False):
            kept_stones = stones_now if keep_stones else 0
            indexes = [
                i
                for i, face in enumerate(dice)
                if face != color and not (keep_stones and face == STONE_FACE)
            ]
            if not indexes:
                continue
            expected = 0.0
            for hits, stones, chance in _outcomes(len(indexes)):
                value = tables[path][hits_now + hits]
                if kept_stones + stones >= 2:
                    value += tile
                expected += chance * value
            if expected > best_value + 1e-9:
                best_value, best_indexes = expected, indexes
    if best_indexes is None:
        return {"action": "keep"}
    return {"action": "reroll", "dice": best_indexes}


BOTS = {"random": random_bot, "greedy": greedy_bot}
