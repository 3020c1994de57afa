"""Every command of keltis-dice as a shared, read-only value (what `legal_moves` lists).

A `Command` is a `dict` (JSON-ready, equal to the plain dict a client sends) that refuses
changes, so `legal_moves` can hand out the same objects every time instead of building up
to 32 fresh dicts per call. Copy one with `dict(command)` to change it.
"""

from __future__ import annotations

from itertools import combinations

from domain.dice.board import COLORS
from domain.dice.state import DICE


def _refuse(self, *args, **kwargs):
    raise TypeError("legal moves are shared read-only values; copy one with dict(move)")


class FrozenList(list):
    """A list that refuses changes (the dice indexes of a reroll command)."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __reduce_ex__(self, protocol):
        return (list, (list(self),))


class Command(dict):
    """A dict that refuses changes; copies (`dict(c)`, `copy`, `deepcopy`) are plain dicts."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce_ex__(self, protocol):
        return (dict, (dict(self),))


KEEP = Command(action="keep")
PASS = Command(action="pass")
REROLL_CHOICES = tuple(  # every non-empty set of dice indexes, sorted (T1)
    indexes for size in range(1, DICE + 1) for indexes in combinations(range(DICE), size)
)
REROLLS = tuple(Command(action="reroll", dice=FrozenList(ix)) for ix in REROLL_CHOICES)
ROLL_STAGE = (KEEP, *REROLLS)
MOVES = tuple(Command(action="move", color=color) for color in COLORS)
CLOVERS = tuple(Command(action="clover", color=color) for color in COLORS)
