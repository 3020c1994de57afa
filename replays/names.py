"""The rule for player names, one for the API and for replay verification.

A name is shown to other players (listings, tables, terminals), so it is 1 to 40 characters,
not only whitespace, and holds no control, format (bidi overrides included), lone surrogate,
private-use or unassigned character. `name_problem` says what is wrong, or None.
"""

from __future__ import annotations

import unicodedata

NAME_MAX_LENGTH = 40
# Unicode categories a name may not hold: control, format, surrogate, private use, unassigned.
NOT_SHOWN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})


def name_problem(name) -> str | None:
    """Why `name` is not an acceptable player name, or None when it is."""
    if not isinstance(name, str):
        return "is not a string"
    if not 1 <= len(name) <= NAME_MAX_LENGTH:
        return f"must be 1 to {NAME_MAX_LENGTH} characters long"
    if not name.strip():
        return "must not be only whitespace"
    if holds_unshown(name):
        return "must not contain control, format or unassigned characters"
    return None


def holds_unshown(text: str) -> bool:
    """True when `text` holds a character of a category in NOT_SHOWN."""
    return any(unicodedata.category(char) in NOT_SHOWN for char in text)
