"""The confusable skeleton of an account name: names that look alike share one (`alice1`,
`aIice1`, `a1ice1`, `ALICE1` all give `allcel`), so a sign-up whose skeleton is taken is
refused like a taken name.

After Unicode TS #39's skeleton (map each character to the prototype it is confusable with),
reduced to the alphabet account names have (ASCII `A-Z a-z 0-9 _ -`): a library built for
Unicode (confusable_homoglyphs flags mixed scripts, not I/l/1 within Latin) adds nothing
here, and a mapping this small is read at a glance. Names are unique ignoring case, so the
classes are closed under case: `I` looks like `l` and is the capital of `i`, hence i, I, l,
L, 1 are one class (`lvy` is refused beside `IVY`, and so beside `ivy`); o, O, 0 are one.
"""

from __future__ import annotations

_GLYPHS = str.maketrans({"i": "l", "1": "l", "0": "o"})  # applied after lower-casing
# Letter pairs that read as one letter in most fonts, and that letter (applied in order).
_PAIRS = (("rn", "m"), ("vv", "w"), ("cl", "d"))


def skeleton(name: str) -> str:
    """The form look-alike names share (case folded too)."""
    shown = name.lower().translate(_GLYPHS)
    for pair, letter in _PAIRS:
        shown = shown.replace(pair, letter)
    return shown
