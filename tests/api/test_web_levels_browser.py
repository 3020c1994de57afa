"""The lobby's bot choice names each level with its rating: "level 3,
about N rating (medium)", N from `GET /v1/bots`; other bots keep their "<name> bot" label."""

from __future__ import annotations

import pytest
import requests

from tests.support.chromium import chromium_page
from tests.workers.processes import wait_for

pytestmark = pytest.mark.redis


def test_the_lobby_labels_each_level_with_its_rating(live_stack):
    base = live_stack.base_url
    games = requests.get(base + "/v1/bots", timeout=10).json()["games"]
    levels = {g["game"]: g["levels"] for g in games}["keltis-card"]
    with chromium_page() as browser:
        browser.get(base + "/")
        wait_for(lambda: browser.execute_script("return document.body.dataset.ready"), 30)
        labels = browser.execute_script(
            "return Object.fromEntries([...document.querySelectorAll("
            "'[data-testid=seat-1] option')].map((o) => [o.value, o.textContent]));"
        )
    recipes = {level["recipe"] for level in levels}
    assert not [value for value in labels if value.removeprefix("bot:") in recipes]  # once each
    for level in levels:
        label = labels["bot:" + level["name"]]
        assert label.startswith(f"Level {level['level']} bot (")
        assert level["strength"] in label
        if level["rating"] is not None:
            assert f"about {level['rating']} rating" in label
