"""The command value both games build on: a read-only JSON-ready dict with a `code`.

Each game subclasses `Command` once (`CardCommand`, `DiceCommand`), builds one shared
instance per possible command, hands those out from `legal_moves`, and parses any other
dict a client sends into the shared instance it equals (`commands.parse`). `decide` then
works on the `code` alone. Copies (`dict(c)`, `copy`, `deepcopy`, pickle) are plain dicts.
"""

from __future__ import annotations


def _refuse(self, *args, **kwargs):
    raise TypeError("legal moves are shared read-only values; copy one with dict(move)")


class FrozenList(list):
    """A list that refuses changes (the list fields of a shared command)."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __reduce_ex__(self, protocol):
        return (list, (list(self),))


class Command(dict):
    """A shared, read-only command; `code` is the game's int for it."""

    __slots__ = ("code",)
    __setitem__ = __delitem__ = __ior__ = _refuse
    # Each command is built once, so two shared commands are equal only when they are the
    # same object: comparing them is an identity test in C, not a walk over their fields
    # (`decide` finds a command among the legal ones on every step). Against a plain dict
    # the comparison falls back to dict's own, which compares the fields. All six come
    # from `object` so that CPython keeps a C comparison slot.
    __eq__ = object.__eq__
    __ne__ = object.__ne__
    __lt__ = object.__lt__
    __le__ = object.__le__
    __gt__ = object.__gt__
    __ge__ = object.__ge__
    clear = pop = popitem = setdefault = update = _refuse

    def __init__(self, code: int, **fields):
        super().__init__(
            {k: FrozenList(v) if isinstance(v, list) else v for k, v in fields.items()}
        )
        self.code = code

    def __reduce_ex__(self, protocol):
        return (dict, (dict(self),))
