"""The board as data (W1, W2): one JSON file per side in `boards/`, validated on first use.

File shape (`boards/basic.json`)::

    {"name": "basic", "goal_from": 7,
     "paths": {"brown": {"values": [-4, ..., 10],            # 9 field values, field 1 first
                         "bonuses": {"3": "clover", "5": "stone", "7": "kobold"},
                         "forbidden": []},                    # advanced side only (T5)
               ... one entry per colour ...}}

Inside the engine a board is a `Board` of tuples indexed by path (colour order) and field
number (index 0 stands for "no marker" and carries value 0, no bonus, not forbidden).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

COLORS = ("brown", "yellow", "pink", "green", "blue")
FIELDS = 9
BONUSES = ("clover", "stone", "kobold")
BOARD_NAMES = ("basic", "advanced")


class BoardFileError(ValueError):
    """A board file is missing or malformed; the message names the file and the fault."""


@dataclass(frozen=True)
class Board:
    """One side of the board. Every per-path tuple is indexed by field number 0..9."""

    name: str
    goal_from: int
    values: tuple[tuple[int, ...], ...]
    bonus: tuple[tuple[str | None, ...], ...]
    forbidden: tuple[tuple[bool, ...], ...]
    # reach[entering][path][field][steps]: whether a marker on `field` may move `steps`
    # fields (0-5, a colour's count on the dice); `entering` is whether a new marker may
    # still come on (W4). Derived once per board: the legal moves of every step read it.
    reach: tuple = field(init=False, repr=False, compare=False)
    layout: dict = field(init=False, repr=False, compare=False)  # to_json's answer

    def __post_init__(self) -> None:
        def may_move(path: int, start: int, steps: int, entering: bool) -> bool:
            if not steps or start == 9 or (start == 0 and not entering):
                return False
            return not self.forbidden[path][min(start + steps, 9)]

        reach = tuple(
            tuple(
                tuple(
                    tuple(may_move(path, start, steps, entering) for steps in range(6))
                    for start in range(FIELDS + 1)
                )
                for path in range(len(COLORS))
            )
            for entering in (False, True)
        )
        object.__setattr__(self, "reach", reach)
        object.__setattr__(self, "layout", self._layout())

    def _layout(self) -> dict:
        return {
            "name": self.name,
            "goal_from": self.goal_from,
            "paths": {
                color: {
                    "values": list(self.values[p][1:]),
                    "bonuses": {
                        str(f): self.bonus[p][f]
                        for f in range(1, FIELDS + 1)
                        if self.bonus[p][f] is not None
                    },
                    "forbidden": [f for f in range(1, FIELDS + 1) if self.forbidden[p][f]],
                }
                for p, color in enumerate(COLORS)
            },
        }

    def to_json(self) -> dict:
        """The board as the JSON-ready layout shown in views: one dict per board, shared by
        every view (built once, for each view shows it); read it, never change it."""
        return self.layout


def parse_board(document: object, source: str = "<board>") -> Board:
    """Validate a decoded board document and build a `Board`; raises BoardFileError."""

    def fail(message: str) -> BoardFileError:
        return BoardFileError(f"board file {source}: {message}")

    if not isinstance(document, dict):
        raise fail("the top level must be an object")
    name = document.get("name")
    if not isinstance(name, str) or not name:
        raise fail('"name" must be a non-empty string')
    goal_from = document.get("goal_from")
    if type(goal_from) is not int or not 1 <= goal_from <= FIELDS:
        raise fail(f'"goal_from" must be an integer field number 1..{FIELDS}')
    paths = document.get("paths")
    if not isinstance(paths, dict) or sorted(paths) != sorted(COLORS):
        raise fail(f'"paths" must be an object with exactly the keys {list(COLORS)}')
    values, bonus, forbidden = [], [], []
    for color in COLORS:
        path_values, path_bonus, path_forbidden = _parse_path(paths[color], color, fail)
        values.append(path_values)
        bonus.append(path_bonus)
        forbidden.append(path_forbidden)
    return Board(name, goal_from, tuple(values), tuple(bonus), tuple(forbidden))


def _parse_path(path: object, color: str, fail) -> tuple[tuple, tuple, tuple]:
    if not isinstance(path, dict) or set(path) != {"values", "bonuses", "forbidden"}:
        raise fail(f'path "{color}" must have exactly "values", "bonuses", "forbidden"')
    raw_values = path["values"]
    if (
        not isinstance(raw_values, list)
        or len(raw_values) != FIELDS
        or any(type(v) is not int for v in raw_values)
    ):
        raise fail(f'path "{color}": "values" must be a list of {FIELDS} integers')
    bonus: list[str | None] = [None] * (FIELDS + 1)
    raw_bonuses = path["bonuses"]
    if not isinstance(raw_bonuses, dict):
        raise fail(f'path "{color}": "bonuses" must be an object field -> bonus')
    for key, kind in raw_bonuses.items():
        field = _field_number(key, fail, color)
        if kind not in BONUSES:
            raise fail(f'path "{color}": bonus "{kind}" on field {key} is not one of {BONUSES}')
        bonus[field] = kind
    flags = [False] * (FIELDS + 1)
    raw_forbidden = path["forbidden"]
    if not isinstance(raw_forbidden, list):
        raise fail(f'path "{color}": "forbidden" must be a list of field numbers')
    for key in raw_forbidden:
        field = _field_number(key, fail, color)
        if field in (1, FIELDS):
            raise fail(f'path "{color}": field {field} may not be forbidden (entry / last field)')
        if bonus[field] is not None:
            raise fail(f'path "{color}": field {field} is both forbidden and a bonus field')
        flags[field] = True
    return (0, *raw_values), tuple(bonus), tuple(flags)


def _field_number(key: object, fail, color: str) -> int:
    text = str(key)
    if not text.isdigit() or not 1 <= int(text) <= FIELDS:
        raise fail(f'path "{color}": {key!r} is not a field number 1..{FIELDS}')
    return int(text)


@cache
def load_board(name: str) -> Board:
    """The named side, read from `boards/<name>.json` on first use and cached."""
    if name not in BOARD_NAMES:
        raise BoardFileError(f"unknown board {name!r}; known: {list(BOARD_NAMES)}")
    source = f"domain/dice/boards/{name}.json"
    try:
        text = resources.files(__package__).joinpath("boards", f"{name}.json").read_text("utf-8")
    except OSError as exc:
        raise BoardFileError(f"board file {source}: cannot be read ({exc})") from exc
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BoardFileError(f"board file {source}: not valid JSON ({exc})") from exc
    board = parse_board(document, source)
    if board.name != name:
        raise BoardFileError(f"board file {source}: names itself {board.name!r}")
    return board
