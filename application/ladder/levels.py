"""The levels' calibration (display data): each level's rating on the ladder, measured by
self-play (`LEVELS_WRITE=1 python -m bench levels`), shipped as `levels_calibration.json`
beside this module, with the strength word people see.

Reading it has no side effect at import time (the file is read on first use).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from domain.levels import level_names, level_of, recipes
from ladder.display import shown_rating

DATA_PATH = Path(__file__).with_name("levels_calibration.json")
WORDS: dict[int, str] = {1: "beginner", 2: "easy", 3: "medium", 4: "strong", 5: "strongest"}


@cache
def calibration() -> dict:
    """The shipped calibration ({"games": {game: {level name: rating row}}, ...}); empty
    when the file is missing."""
    if not DATA_PATH.exists():
        return {"games": {}}
    return json.loads(DATA_PATH.read_text())


def levels_of(game: str) -> list[dict]:
    """Every level of `game`, weakest first: name, level, recipe, strength word and, when
    calibrated, its rating on the scale people see (ladder.display: from its ordinal, as a
    player's), mu, sigma and the games it rests on."""
    rated = calibration()["games"].get(game, {})
    shown = []
    for name in level_names():
        level = level_of(name)
        row = rated.get(name) or {}
        shown.append(
            {
                "name": name,
                "level": level,
                "recipe": recipes(game)[level],
                "strength": WORDS[level],
                "rating": shown_rating(row["mu"] - 3 * row["sigma"]) if "mu" in row else None,
                "mu": row.get("mu"),
                "sigma": row.get("sigma"),
                "games": row.get("games", 0),
            }
        )
    return shown


__all__ = ["DATA_PATH", "WORDS", "calibration", "levels_of"]
