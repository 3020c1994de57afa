"""The games this service knows, by name."""

from __future__ import annotations

import importlib

from domain.game import GameRules

_MODULES = {"keltis-card": "domain.card", "keltis-dice": "domain.dice"}


def game_names() -> list[str]:
    """Names of every game the service offers."""
    return list(_MODULES)


def get_rules(name: str) -> GameRules:
    """The rules object of a game; KeyError for an unknown name."""
    return importlib.import_module(_MODULES[name]).RULES
