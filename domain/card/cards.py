"""Cards of keltis-card and their notation (C1-C4).

Internally a card is a *kind*, a small int; names (`blue-7`, `blue-end`, `point-5`) are only
used at the edges (commands, events, views). Twins share one kind.

    colour card:  kind = colour_index * 12 + value   (value 0..10; 11 = end card)
    point card:   kind = 60 + value                   (value 0..10)

Canonical order of the 101 cards (the order handed to `Chance.shuffled(..., "deck")`):
for each colour in `brown, yellow, pink, green, blue`: values 0, 1, 2, 3, 3, 4, 4, 5, 5, 6, 6,
7, 7, 8, 9, 10, then the two end cards; then `point-0` .. `point-10`. Sorting by kind gives
the same order, which is also how hands are shown.
"""

from __future__ import annotations

COLOURS = ("brown", "yellow", "pink", "green", "blue")
POINT = "point"
ROWS = (*COLOURS, POINT)  # row / pile index 0..4 colours, 5 the point row / point pile
POINT_ROW = 5
END = 11
POINT_BASE = 60
KIND_COUNT = 71
TWIN_VALUES = frozenset(range(3, 8))  # C1: 3-7 twice per colour


def colour_kind(colour: int, value: int) -> int:
    """The kind of a colour card (value 11 = end card)."""
    return colour * 12 + value


def point_kind(value: int) -> int:
    """The kind of a point card."""
    return POINT_BASE + value


def _name(kind: int) -> str:
    if kind >= POINT_BASE:
        return f"{POINT}-{kind - POINT_BASE}"
    colour, value = divmod(kind, 12)
    return f"{COLOURS[colour]}-{'end' if value == END else value}"


def _canonical_deck() -> tuple[int, ...]:
    kinds = []
    for colour in range(5):
        for value in range(11):
            kinds.extend([colour_kind(colour, value)] * (2 if value in TWIN_VALUES else 1))
        kinds.extend([colour_kind(colour, END)] * 2)
    kinds.extend(point_kind(value) for value in range(11))
    return tuple(kinds)


VALID_KINDS = tuple(k for k in range(KIND_COUNT) if k >= POINT_BASE or k % 12 <= END)
NAMES: tuple[str, ...] = tuple(_name(k) for k in range(KIND_COUNT))
KIND_OF: dict[str, int] = {NAMES[k]: k for k in VALID_KINDS}
# Pile / row of a kind: its colour index, or 5 for point cards.
PILE_OF: tuple[int, ...] = tuple(5 if k >= POINT_BASE else k // 12 for k in range(KIND_COUNT))
# Face value of a kind: 0..10, or None for an end card.
VALUE_OF: tuple[int | None, ...] = tuple(
    k - POINT_BASE if k >= POINT_BASE else (None if k % 12 == END else k % 12)
    for k in range(KIND_COUNT)
)
CANONICAL_KINDS: tuple[int, ...] = _canonical_deck()
CANONICAL_DECK: tuple[str, ...] = tuple(NAMES[k] for k in CANONICAL_KINDS)
DECK_SIZE = len(CANONICAL_DECK)  # 101 (C2)
STONES = tuple(range(1, 10))  # C3
ALL_STONES_MASK = sum(1 << v for v in STONES)


def kind_of(name: object) -> int | None:
    """The kind of a card name, or None when it is not a card (C4)."""
    return KIND_OF.get(name) if isinstance(name, str) else None


def name_of(kind: int) -> str:
    """The C4 name of a kind."""
    return NAMES[kind]


def stones_of(mask: int) -> list[int]:
    """The stone values held in a bit mask (bit v = stone v)."""
    return [v for v in STONES if mask >> v & 1]
