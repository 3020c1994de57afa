"""docs/bots.md's "In any language: the HTTP contract" shows real answers of the service: each
example block still matches what the service answers (devtools.http_contract)."""

from __future__ import annotations

from pathlib import Path

import pytest

from devtools import http_contract

pytestmark = pytest.mark.redis
PAGE = Path(__file__).resolve().parents[2] / "docs" / "bots.md"
NAMES = {
    "sign-up",
    "stream-your-turn",
    "stream-started",
    "stream-finished",
    "stream-challenge",
    "card-game",
    "card-moves",
    "dice-view",
    "dice-moves",
    "move-answer",
    "error-stale",
    "error-illegal",
    "error-unauthenticated",
}


def test_the_readme_examples_match_what_the_service_answers(app):
    documented = http_contract.documented(PAGE.read_text(encoding="utf-8"))
    assert set(documented) == NAMES
    answered = http_contract.collect(app)
    problems = {
        name: found
        for name in NAMES
        if (found := http_contract.matches(documented[name], answered[name]))
    }
    regenerate = "python -m devtools.http_contract docs/bots.md"
    assert problems == {}, f"docs/bots.md drifted: run `{regenerate}`"


def test_a_drifted_example_is_caught(app):
    answered = http_contract.collect(app)
    view = dict(answered["card-game"]["view"])
    view["cards_in_hand"] = view.pop("hand")
    renamed = {**answered["card-game"], "view": view}
    assert http_contract.matches(renamed, answered["card-game"]) == [
        f"$.view: keys {sorted(view)} documented, {sorted(answered['card-game']['view'])} answered"
    ]
    unknown_move = {**answered["card-moves"], "moves": [{"action": "discard", "cards": ["x"]}]}
    assert http_contract.matches(unknown_move, answered["card-moves"])
    assert http_contract.matches({"version": "5"}, {"version": 5}) == [
        "$.version: str documented, number answered"
    ]
