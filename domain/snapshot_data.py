"""Plain data of a slotted state object and back, for snapshots of a game's state.

A state holds only ints, strs, bools, None and (nested) tuples of them; as data the tuples
are lists (JSON has no tuple), so reading turns every list back into a tuple.
"""

from __future__ import annotations

from typing import Any


def as_tuples(value: Any) -> Any:
    """`value` with every (nested) list turned into a tuple."""
    if isinstance(value, list):
        return tuple(as_tuples(item) for item in value)
    return value


def slots_to_data(state: object, names: tuple[str, ...]) -> dict:
    """The named slots of `state` as a dict (tuples stay tuples; a JSON encoder lists them)."""
    return {name: getattr(state, name) for name in names}


def data_to_slots(state: object, data: dict, names: tuple[str, ...]) -> None:
    """Set the named slots of `state` from `data`, lists as tuples; KeyError when one is
    missing."""
    for name in names:
        setattr(state, name, as_tuples(data[name]))
