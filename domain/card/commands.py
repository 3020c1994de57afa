"""Commands of keltis-card: the `CardCommand` type, parsing, and the legal-move generator.

Every command is a prebuilt, read-only `CardCommand` (`domain.command.Command`: a
JSON-ready dict) carrying an int `code`; `legal_moves` hands out these shared objects,
`parse` turns any other dict into the shared command it equals, and `decide` works on the
code alone.

Codes: discard = kind; lay = 100 + kind * 6 + row; wish = 1000 + low_kind * 71 + high_kind;
draw = 10000 + source (0-5 a pile, 6 the deck); stop = 20000.

Command shapes (C4 names; rows and piles are `brown`..`blue` or `point`):
    {"action": "discard", "card": "blue-7"}
    {"action": "wish", "cards": ["blue-3", "point-3"]}
    {"action": "lay", "card": "blue-7"}              colour card; "row" omitted or its colour
    {"action": "lay", "card": "point-5", "row": "blue"}   point card: "row" required
    {"action": "draw", "source": "deck"}             or a pile name
    {"action": "stop"}                               final round only
`legal_moves` lists a colour-card lay without "row"; `parse` accepts both forms.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations

from domain.card.cards import (
    COLOURS,
    END,
    KIND_COUNT,
    KIND_OF,
    NAMES,
    PILE_OF,
    POINT_BASE,
    POINT_ROW,
    ROWS,
    VALID_KINDS,
    VALUE_OF,
)
from domain.card.state import DRAW, FINAL_ROUND, LAST_VALUE, NEXT_STATUS, PLAY, STATUS_COUNT
from domain.command import Command
from domain.errors import IllegalMove

LAY_BASE = 100
WISH_BASE = 1000
DRAW_BASE = 10000
DECK_SOURCE = 6
STOP_CODE = 20000
SOURCES = (*ROWS, "deck")


class CardCommand(Command):
    """A keltis-card command, shared by every state; `code` identifies it."""

    __slots__ = ()


def lay_code(kind: int, row: int) -> int:
    """The code of laying `kind` on row `row`."""
    return LAY_BASE + kind * 6 + row


def wish_code(kind_a: int, kind_b: int) -> int:
    """The code of wishing with two kinds (order does not matter)."""
    low, high = (kind_a, kind_b) if kind_a <= kind_b else (kind_b, kind_a)
    return WISH_BASE + low * KIND_COUNT + high


def _build_table() -> dict[int, CardCommand]:
    table: dict[int, CardCommand] = {}
    for kind in VALID_KINDS:
        name = NAMES[kind]
        table[kind] = CardCommand(kind, action="discard", card=name)
        if kind < POINT_BASE:
            table[lay_code(kind, PILE_OF[kind])] = CardCommand(
                lay_code(kind, PILE_OF[kind]), action="lay", card=name
            )
        else:
            for row in range(6):
                code = lay_code(kind, row)
                table[code] = CardCommand(code, action="lay", card=name, row=ROWS[row])
    for kind_a in VALID_KINDS:
        for kind_b in VALID_KINDS:
            same_value = VALUE_OF[kind_a] is not None and VALUE_OF[kind_a] == VALUE_OF[kind_b]
            if kind_a <= kind_b and same_value:
                code = wish_code(kind_a, kind_b)
                table[code] = CardCommand(code, action="wish", cards=[NAMES[kind_a], NAMES[kind_b]])
    for source, name in enumerate(SOURCES):
        table[DRAW_BASE + source] = CardCommand(DRAW_BASE + source, action="draw", source=name)
    table[STOP_CODE] = CardCommand(STOP_CODE, action="stop")
    return table


COMMANDS: dict[int, CardCommand] = _build_table()
_DISCARD = tuple(COMMANDS.get(k) for k in range(KIND_COUNT))
_COLOUR_LAY = tuple(COMMANDS.get(lay_code(k, PILE_OF[k])) for k in range(KIND_COUNT))
_POINT_LAY = tuple(
    tuple(COMMANDS[lay_code(POINT_BASE + v, row)] for row in range(6)) for v in range(11)
)
# _LAY_ON[status][kind] -> the lay of colour card `kind` on its row of that status (P3), or
# None when the row does not take it.
_LAY_ON = tuple(
    tuple(_COLOUR_LAY[k] if NEXT_STATUS[status][k % 12] >= 0 else None for k in range(POINT_BASE))
    for status in range(STATUS_COUNT)
)
# Wish value of a kind (1..9), or 0 if it can never be wished with (0, 10, end card).
_WISH_VALUE = tuple(v if v is not None and 1 <= v <= 9 else 0 for v in VALUE_OF)
# The bit of a kind's wishing stone in a stone mask; bit 0 (no wish value) is never set.
_WISH_BIT = tuple(1 << value for value in _WISH_VALUE)


def _draw_options(blocked: int) -> tuple[tuple[int, ...], tuple[CardCommand, ...]]:
    codes = [DRAW_BASE + DECK_SOURCE] + [
        DRAW_BASE + pile for pile in range(6) if not blocked >> pile & 1
    ]
    return tuple(codes), tuple(COMMANDS[c] for c in codes)


# DRAW_OPTIONS[mask of banned or empty piles] -> (codes, moves); the deck is always open.
DRAW_OPTIONS = tuple(_draw_options(mask) for mask in range(64))
_DRAW_MOVES = tuple(moves for codes, moves in DRAW_OPTIONS)
STOP_ONLY = ((STOP_CODE,), (COMMANDS[STOP_CODE],))


# _WISH_OF[low][high] -> the wish with kinds low <= high, or None when they make none (P2).
_WISH_OF = tuple(
    tuple(
        COMMANDS[wish_code(low, high)]
        if _WISH_VALUE[low] and _WISH_VALUE[low] == _WISH_VALUE[high]
        else None
        for high in range(KIND_COUNT)
    )
    for low in range(KIND_COUNT)
)


# The bit of each open row's last value (P4: a point card of that value may go there).
_LAST_BIT = tuple(1 << value if value >= 0 else 0 for value in LAST_VALUE)


def _wishes(wishable: list) -> list:
    """Every distinct wish among wishable kinds that share their values (sorted, twins
    kept), in pair order."""
    if len(wishable) == 2:
        return [_WISH_OF[wishable[0]][wishable[1]]]
    found = {}  # a twin pair comes twice: kept once, in pair order
    for low, high in combinations(wishable, 2):
        command = _WISH_OF[low][high]
        if command is not None:
            found[command.code] = command
    return [*found.values()]


def _hand_options(
    hand: tuple,
    status: tuple,
    stones: int,
    # Bound as locals: the loop reads them for every card, and a local costs less.
    _WISH_BIT=_WISH_BIT,
    _DISCARD=_DISCARD,
    _LAY_ON=_LAY_ON,
    _POINT_LAY=_POINT_LAY,
    LAST_VALUE=LAST_VALUE,
    _LAST_BIT=_LAST_BIT,
    POINT_BASE=POINT_BASE,
) -> tuple[list, list, list]:
    """(discards, wishes, lays) of a hand (P1-P4), each in hand order. One pass over the
    hand, as this runs on every play step: a hand is sorted, so a twin follows its own kind
    and is listed once. The pass collects the stone values two wishable cards share; only
    the cards of those values are paired up into wishes, and only when there are any. A
    point card's rows are looked for only when an open row ends in its value."""
    moves = []
    lays = []
    values_seen = 0
    paired = 0
    previous = -1
    open_values = -1
    for kind in hand:
        bit = stones & _WISH_BIT[kind]
        if bit:
            paired |= values_seen & bit
            values_seen |= bit
        if kind == previous:
            continue
        previous = kind
        moves.append(_DISCARD[kind])
        if kind < POINT_BASE:
            lay = _LAY_ON[status[kind // 12]][kind]
            if lay is not None:
                lays.append(lay)
        else:
            value = kind - POINT_BASE
            options = _POINT_LAY[value]
            if open_values < 0:
                brown, yellow, pink, green, blue = status
                open_values = (
                    _LAST_BIT[brown]
                    | _LAST_BIT[yellow]
                    | _LAST_BIT[pink]
                    | _LAST_BIT[green]
                    | _LAST_BIT[blue]
                )
            if open_values >> value & 1:
                for row in range(5):
                    if LAST_VALUE[status[row]] == value:
                        lays.append(options[row])
            lays.append(options[POINT_ROW])
    if paired:
        return moves, _wishes([kind for kind in hand if _WISH_BIT[kind] & paired]), lays
    return moves, (), lays


def legal_moves(state, seat: int) -> list:
    """Every command `decide` accepts from `seat` now (shared read-only dicts; the list is
    the caller's own). They are listed once per state, into `state._legal` (see
    `legal_commands`), here rather than behind one more call, as a game's loop asks for
    them on every step."""
    if seat != state.to_move:
        return []
    listed = state._legal
    if listed is None:
        step = state.step
        if step == PLAY:  # discards, then wishes, then lays
            board = state.board
            listed, wishes, lays = _hand_options(
                state.hands[seat], board.row_status[seat], board.stones_table
            )
            listed += wishes
            listed += lays
        elif step == DRAW:
            piles = state.piles
            blocked = state.banned
            if () in piles:  # most draws find no pile empty; unrolled, as a loop costs more
                brown, yellow, pink, green, blue, point = piles
                blocked |= (
                    (not brown)
                    | (not yellow) << 1
                    | (not pink) << 2
                    | (not green) << 3
                    | (not blue) << 4
                    | (not point) << 5
                )
            listed = _DRAW_MOVES[blocked]
        elif step == FINAL_ROUND:
            if state.hands[seat]:
                listed = _hand_options(state.hands[seat], state.board.row_status[seat], 0)[2]
                listed.append(COMMANDS[STOP_CODE])
            else:
                listed = STOP_ONLY[1]
        else:
            listed = ()
        state._legal = listed
    return [*listed]


def legal_commands(state) -> tuple | list:
    """The shared commands the seat to move may send, cached on the state (the caller must
    not change the sequence). `decide` checks a command by finding it here: the commands
    are shared, so a legal one is found by identity."""
    listed = state._legal
    if listed is None:
        legal_moves(state, state.to_move)
        listed = state._legal
    return listed


def legal_options(state) -> tuple:
    """(codes, moves) of the seat to move."""
    moves = legal_commands(state)
    return [move.code for move in moves], moves


def _shape_error(message: str) -> IllegalMove:
    return IllegalMove(message, rule=None)


def _card(command: Mapping, field: str = "card") -> int:
    name = command.get(field)
    kind = KIND_OF.get(name) if isinstance(name, str) else None
    if kind is None:
        raise IllegalMove(f"{field} must be a card name like 'blue-7' or 'point-5'", rule="C4")
    return kind


def _check_keys(command: Mapping, allowed: set) -> None:
    extra = set(command) - allowed
    if extra:
        raise _shape_error(f"unexpected fields: {sorted(map(str, extra))}")


def parse(command: object) -> CardCommand:
    """The shared command a client's dict equals; raises IllegalMove for a malformed one."""
    return COMMANDS[_code(command)]


def _code(command: object) -> int:
    if not isinstance(command, Mapping):
        raise _shape_error("a command is an object with an 'action'")
    action = command.get("action")
    if action == "discard":
        _check_keys(command, {"action", "card"})
        return _card(command)
    if action == "wish":
        _check_keys(command, {"action", "cards"})
        cards = command.get("cards")
        if not isinstance(cards, list | tuple) or len(cards) != 2:
            raise _shape_error("a wish names exactly two cards")
        kinds = [_card({"card": c}) for c in cards]
        if VALUE_OF[kinds[0]] is None or VALUE_OF[kinds[0]] != VALUE_OF[kinds[1]]:
            raise IllegalMove("a wish needs two number or point cards of equal value", rule="P2")
        return wish_code(*kinds)
    if action == "lay":
        _check_keys(command, {"action", "card", "row"})
        kind = _card(command)
        row_name = command.get("row")
        if kind < POINT_BASE:
            if row_name is not None and row_name != COLOURS[kind // 12]:
                raise IllegalMove("a colour card goes on the row of its colour", rule="P3")
            return lay_code(kind, kind // 12)
        if row_name not in ROWS:
            raise IllegalMove("a point card needs a 'row': a colour or 'point'", rule="P4")
        return lay_code(kind, ROWS.index(row_name))
    if action == "draw":
        _check_keys(command, {"action", "source"})
        source = command.get("source")
        if source not in SOURCES:
            raise _shape_error("source is 'deck' or a pile: " + ", ".join(ROWS))
        return DRAW_BASE + SOURCES.index(source)
    if action == "stop":
        _check_keys(command, {"action"})
        return STOP_CODE
    raise _shape_error("action is one of discard, wish, lay, draw, stop")


def describe(code: int) -> tuple:
    """(kind of code, data): ('discard', kind) / ('lay', kind, row) / ('wish', a, b) /
    ('draw', source) / ('stop',)."""
    if code < LAY_BASE:
        return ("discard", code)
    if code < WISH_BASE:
        kind, row = divmod(code - LAY_BASE, 6)
        return ("lay", kind, row)
    if code < DRAW_BASE:
        low, high = divmod(code - WISH_BASE, KIND_COUNT)
        return ("wish", low, high)
    if code < STOP_CODE:
        return ("draw", code - DRAW_BASE)
    return ("stop",)


__all__ = [
    "COMMANDS",
    "END",
    "CardCommand",
    "describe",
    "legal_commands",
    "legal_moves",
    "legal_options",
    "parse",
]
