"""The rule for player names, one for the API (and its contract) and for replay
verification.

A name is shown to other players (listings, tables, terminals), so it is 1 to 40 characters,
shows at least one visible character, and holds no control, format (bidi overrides
included), private-use, noncharacter or lone surrogate. openapi.yaml's Name says the
same in two parts, `CONTRACT_NAME_PATTERN` and no `CONTRACT_HIDDEN_ASTRAL` character
(tests/api/test_name_rule.py holds them equal to `NAME_PATTERN`).
"""

from __future__ import annotations

import re

NAME_MAX_LENGTH = 40
# Characters never shown in a name: control (C0, DEL, C1), format (soft hyphen, bidi
# controls, zero-width, tags...), private use and noncharacters.
HIDDEN_BMP = (
    r"\x00-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2"
    r"\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ue000-\uf8ff"
    r"\ufdd0-\ufdef\ufeff\ufff9-\ufffb\ufffe\uffff"
)
# Beyond the BMP as the characters themselves: ECMA-262 and Python escape them apart.
HIDDEN_ASTRAL = (
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f\U000f0000-\U0010ffff"
)
HIDDEN_CHARS = HIDDEN_BMP + HIDDEN_ASTRAL
NAME_PATTERN = rf"^[^{HIDDEN_CHARS}]*[^{HIDDEN_CHARS}\s][^{HIDDEN_CHARS}]*$"
# The contract's two parts. Contract testers fold a schema's lengths into its pattern and
# write the result back with Python's escapes, which no ECMA-262 engine reads beyond the
# BMP (`\U000110bd`); a pattern of BMP escapes alone survives that, and the astral
# characters stay in a pattern that has no length beside it.
CONTRACT_NAME_PATTERN = rf"^[^{HIDDEN_BMP}]*[^{HIDDEN_BMP}\s][^{HIDDEN_BMP}]*$"
CONTRACT_HIDDEN_ASTRAL = f"[{HIDDEN_ASTRAL}]"
_NAME = re.compile(NAME_PATTERN)
_SURROGATE = re.compile("[\ud800-\udfff]")


def name_problem(name) -> str | None:
    """Why `name` is not an acceptable player name, or None when it is."""
    if not isinstance(name, str):
        return "is not a string"
    if not 1 <= len(name) <= NAME_MAX_LENGTH:
        return f"must be 1 to {NAME_MAX_LENGTH} characters long"
    if not name.strip():
        return "must not be only whitespace"
    if _SURROGATE.search(name) or not _NAME.fullmatch(name):
        return "must not contain control, format or private-use characters"
    return None
