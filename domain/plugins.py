"""Bots from other installed packages: the entry-point group `keltis.bots`.

A package declares, in its metadata, `[project.entry-points."keltis.bots"]` with
`<name> = "<module>:<object>"`. The object is a bot function `bot(view, legal_moves, rng)`
for both games, a function with an attribute `games` (the game names it plays), or a dict
from game name to bot function. Names must be short (letters, digits, `_ . -`, at most 40)
and not clash with a built-in bot; others are skipped.

This is the one module of `domain` that looks outside: it reads the installed packages'
metadata (like an import does) once per process, through `entry_points`, which tests swap.
"""

from __future__ import annotations

import importlib.metadata
import logging
import re
from collections.abc import Callable, Mapping

GROUP = "keltis.bots"
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
log = logging.getLogger(__name__)

entry_points: Callable = importlib.metadata.entry_points
_found: dict[str, dict[str, Callable]] | None = None


def _games_of(loaded) -> dict[str, Callable] | None:
    """{game name or "*": bot} of one loaded entry point, None when it is no bot."""
    if isinstance(loaded, Mapping):
        return {str(game): bot for game, bot in loaded.items() if callable(bot)} or None
    if callable(loaded):
        games = getattr(loaded, "games", None)
        return {str(game): loaded for game in games} if games else {"*": loaded}
    return None


def _load() -> dict[str, dict[str, Callable]]:
    found: dict[str, dict[str, Callable]] = {}
    for point in entry_points(group=GROUP):
        if not NAME.fullmatch(point.name) or point.name in found:
            log.warning("keltis.bots: skipped the entry point %r (bad or repeated name)", point)
            continue
        try:
            games = _games_of(point.load())
        except Exception:  # a broken package must not break the service
            log.exception("keltis.bots: the entry point %r failed to load", point.name)
            continue
        if games is None:
            log.warning("keltis.bots: %r is neither a bot nor a dict of bots", point.name)
            continue
        found[point.name] = games
    return found


def external_bots(game: str) -> dict[str, Callable]:
    """{name: bot} of the installed packages' bots that play `game` (loaded once)."""
    global _found
    if _found is None:
        _found = _load()
    result = {}
    for name, games in _found.items():
        bot = games.get(game, games.get("*"))
        if bot is not None:
            result[name] = bot
    return result


def forget() -> None:
    """Look the entry points up again on next use (after installing a package; tests)."""
    global _found
    _found = None
