"""Text from a replay made safe for a terminal: control characters escaped, echoes bounded.

A hostile file may hold escape sequences (C0, C1, DEL), bidi overrides, line separators or
megabytes in one value; nothing of it may reach a terminal as is.
"""

from __future__ import annotations

import re
import reprlib
import unicodedata

# Unicode categories never shown on a terminal as they are: control, format, surrogate,
# private use, unassigned; and line separators.
ESCAPED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
QUOTE_LIMIT = 80
LINE_LIMIT = 400
ELLIPSIS = "…"
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
RUN_LIMIT = 160
# A quoted string as repr() writes it into a message: a quote not after a letter, to the same
# quote not before one ("seat 1's" is no quote).
_LONG_QUOTE = re.compile(
    r"(?<!\w)(['\"])(?:\\.|(?!\1).)" + f"{{{QUOTE_LIMIT},}}?" + r"\1(?!\w)", re.S
)
_LONG_RUN = re.compile(r"\S" + f"{{{RUN_LIMIT + 1},}}")


def holds_unshown(text: str) -> bool:
    """True when `text` holds a character that `escape` would escape."""
    return any(unicodedata.category(char) in ESCAPED for char in text)


def escape(text: str) -> str:
    """`text` with every control, format, surrogate, unassigned or line-separator character
    written as a backslash escape (`\\x1b`, `\\u202e`); other characters stay as they are."""
    if text.isprintable():
        return text
    return "".join(_escape_char(char) for char in text)


def _escape_char(char: str) -> str:
    if unicodedata.category(char) not in ESCAPED:
        return char
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def one_line(text: str, limit: int = LINE_LIMIT) -> str:
    """`text` as one escaped terminal line of at most about `limit` characters: every quoted
    string (a `repr` in a message) of over QUOTE_LIMIT characters and every run without a space
    of over RUN_LIMIT is cut to its ends, then a line still too long keeps its start and end."""
    if len(text) > 4 * limit:  # keeps the regular expressions below cheap
        text = text[: 2 * limit] + ELLIPSIS + text[-limit:]
    text = _LONG_QUOTE.sub(lambda m: _cut(m.group(0), QUOTE_LIMIT), text)
    text = _LONG_RUN.sub(lambda m: _cut(m.group(0), RUN_LIMIT), text)
    if len(text) <= limit:
        line = escape(text)
        if len(line) <= limit:
            return line
    head, tail = limit * 2 // 3, limit // 3 - 1
    start, end = escape(text[:head])[:head], escape(text[-tail:])[-tail:]
    return start + ELLIPSIS + end


def _cut(text: str, limit: int) -> str:
    half = (limit - 1) // 2
    return text[:half] + ELLIPSIS + text[-half:]


class _Short(reprlib.Repr):
    """reprlib with small limits and integers too long to convert described, not converted."""

    def __init__(self, limit: int):
        super().__init__()
        self.maxstring = self.maxother = limit
        self.maxlong = 40
        self.maxlevel = 3
        self.maxlist = self.maxtuple = 6
        self.maxdict = 4

    def repr_int(self, x, level):
        if x.bit_length() > 128:
            return f"<an integer of about {int(x.bit_length() * 0.30103) + 1} digits>"
        return super().repr_int(x, level)


def quote(value, limit: int = QUOTE_LIMIT) -> str:
    """A bounded, escaped `repr` of any decoded JSON value, for error messages."""
    text = escape(_Short(limit).repr(value))
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS
