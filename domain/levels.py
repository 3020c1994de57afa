"""Levels for people: the bot names `level:1` to `level:5`, each a fixed recipe of a bot
the service already has, from `random` (level 1) through `greedy` and small fixed search
budgets to the full default `mcts` search (level 5). The order is measured per game
(`python -m bench levels`), so the recipes differ by game: in keltis-card a search of a few
iterations plays below greedy, in keltis-dice above it.

A level is only another name for its recipe: it plays, costs and reproduces exactly as the
bot it names, so every place that takes a bot name (games, seats, tournaments, challenges,
seeks, arena) takes a level alike (`domain.bots.BotTable` resolves it).
"""

from __future__ import annotations

import re

PREFIX = "level:"
RECIPES: dict[int, str] = {  # keltis-card's, and any game's without its own
    1: "random",
    2: "mcts:i4",
    3: "mcts:i15",
    4: "greedy",
    5: "mcts",
}
GAME_RECIPES: dict[str, dict[int, str]] = {
    "keltis-dice": {
        1: "random",
        2: "greedy",
        3: "mcts:i15",
        4: "mcts:i60",
        5: "mcts",
    },
}
_LEVEL_NAME = re.compile(r"level:([1-9])")


def recipes(game: str | None = None) -> dict[int, str]:
    """The recipe of each level of `game`."""
    return GAME_RECIPES.get(game, RECIPES)


def level_names() -> list[str]:
    """Every level's bot name, weakest first."""
    return [f"{PREFIX}{level}" for level in sorted(RECIPES)]


def level_of(name: object) -> int | None:
    """The level a bot name names (None: not a level name)."""
    found = _LEVEL_NAME.fullmatch(name) if isinstance(name, str) else None
    if found is None or int(found.group(1)) not in RECIPES:
        return None
    return int(found.group(1))


def recipe(name: str, game: str | None = None) -> str:
    """The bot name a level of `game` stands for; any other name unchanged."""
    level = level_of(name)
    return name if level is None else recipes(game)[level]


__all__ = ["GAME_RECIPES", "PREFIX", "RECIPES", "level_names", "level_of", "recipe", "recipes"]
