"""How one environment variable's text becomes its typed value: each parser takes the raw
text (the variable is set) and returns the value or raises ValueError with the allowed
range; `SettingsError` then names the variable."""

from __future__ import annotations

import ipaddress
import logging
import math
import re
from collections.abc import Callable

log = logging.getLogger(__name__)

Parser = Callable[[str], object]
OFF_WORDS = ("off", "none", "")
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$")
_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86_400}


class SettingsError(ValueError):
    """An environment variable holds a value outside its allowed range."""


def text(raw: str) -> str:
    """The text as it is."""
    return raw


def stripped_or_none(raw: str) -> str | None:
    """The text without surrounding blanks; None when nothing is left."""
    return raw.strip() or None


def or_none(raw: str) -> str | None:
    """The text; None when empty."""
    return raw or None


def not_off(raw: str) -> bool:
    """On unless the word is `off` (any case)."""
    return raw.strip().lower() != "off"


def exactly_one(raw: str) -> bool:
    """On only for `1`."""
    return raw == "1"


def number(low: float, high: float, *, low_open: bool = False, blank=None) -> Parser:
    """A number in [low, high] ((low, high] when `low_open`); `blank` for empty text."""

    def parse(raw: str) -> float | None:
        if blank is not None and not raw.strip():
            return blank
        try:
            value = float(raw)
        except ValueError:
            value = math.nan
        inside = (low < value if low_open else low <= value) and value <= high
        if not inside:
            least = f"{'above' if low_open else 'of at least'} {low:g}"
            most = "" if high == math.inf else f" and at most {high:g}"
            raise ValueError(f"a number {least}{most}, got {raw!r}")
        return value

    return parse


def integer(low: int, high: int | None = None, *, blank=None) -> Parser:
    """A whole number of ASCII digits (a sign allowed) in [low, high]; `blank` for empty."""

    def parse(raw: str) -> int | None:
        if blank is not None and not raw.strip():
            return blank
        try:
            value = int(raw) if raw.strip().isascii() else None
        except ValueError:
            value = None
        if value is None or value < low or (high is not None and value > high):
            top = "" if high is None else f" and {high}"
            more = " or more" if high is None else ""
            raise ValueError(f"a whole number between {low}{top}{more}, got {raw!r}")
        return value

    return parse


def digits(low: int) -> Parser:
    """ASCII digits only (no sign; blanks around ignored), at least `low`; None (the
    default) for blank text."""

    def parse(raw: str) -> int | None:
        raw = raw.strip()
        if not raw:
            return None
        if not raw.isascii() or not raw.isdigit() or int(raw) < low:
            raise ValueError(f"a whole number of {low} or more, got {raw!r}")
        return int(raw)

    return parse


def at_least(low: int, fallback: int | None = None) -> Parser:
    """A whole number raised to `low` when below it; `fallback` for text that is not one
    (None: refused)."""

    def parse(raw: str) -> int:
        try:
            return max(low, int(raw))
        except ValueError:
            if fallback is None:
                raise ValueError(f"a whole number (at least {low} is used), got {raw!r}") from None
            return fallback

    return parse


def clamped(low: int, high: int, fallback: int, *, warn: bool = False) -> Parser:
    """A whole number held within [low, high]; `fallback` for text that is not one (logged
    when `warn`) or is blank."""

    def parse(raw: str) -> int:
        try:
            return max(low, min(high, int(raw)))
        except ValueError:
            if warn and raw.strip():
                log.warning("%r is not a whole number: using %d", raw, fallback)
            return fallback

    return parse


def bound_or_off(raw: str) -> int:
    """A whole number; 0 (no bound) for off, none or blank."""
    if raw.strip().lower() in OFF_WORDS:
        return 0
    try:
        return int(raw)
    except ValueError:
        raise ValueError(f"a whole number, or off, got {raw!r}") from None


def duration(raw: str) -> float | None:
    """Seconds, or a number with s, m, h or d; None (the default) for blank text."""
    if not raw.strip():
        return None
    found = _DURATION.match(raw)
    if found is None:
        raise ValueError(f"seconds or a number with s, m, h or d, not {raw!r}")
    return float(found.group(1)) * _UNITS[found.group(2)]


def cidr_list(raw: str) -> str:
    """A comma-separated list of networks (CIDR), checked; kept as written."""
    for part in raw.split(","):
        if part.strip():
            try:
                ipaddress.ip_network(part.strip(), strict=False)
            except ValueError:
                raise ValueError(f"comma-separated networks (CIDR), got {part.strip()!r}") from None
    return raw


def port_list(raw: str) -> tuple[int, ...]:
    """Comma-separated port numbers."""
    try:
        return tuple(int(p) for p in raw.split(",") if p.strip())
    except ValueError:
        raise ValueError(f"comma-separated port numbers, got {raw!r}") from None


def name_list(raw: str) -> tuple[str, ...]:
    """Comma-separated names, blanks dropped."""
    return tuple(part.strip() for part in raw.split(",") if part.strip())
