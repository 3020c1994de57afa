"""The arena's web page in Debian's headless Chromium against the real stack (gunicorn, a
worker, Redis): the list links to the arena, whose leaderboard fills live as games finish."""

from __future__ import annotations

import time

import pytest
import requests

from application.games.service import GameService
from cli.serve import start_stack
from store.arenas.records import ArenaStore
from store.core.clock import now_ms
from tests.arenas.test_arena_workers import LiveBots
from tests.support.chromium import start_chromium
from tests.support.ports import free_port

pytestmark = pytest.mark.redis

OPERATOR = "op-page-token-0123456789"


@pytest.fixture(scope="module")
def stack(redis_url):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KELTIS_OPERATOR_TOKEN", OPERATOR)
        patch.setenv("KELTIS_QUOTAS", "off")
        patch.setenv("KELTIS_ARENA_EVERY_S", "0.05")
        served = start_stack(port=free_port(), web_workers=1, connections=50, redis_url=redis_url)
    yield served
    served.stop()


@pytest.fixture
def browser():
    driver = start_chromium()
    driver.set_page_load_timeout(20)
    yield driver
    driver.quit()


def _texts(browser, testid) -> list[str]:
    """The text of each element of a test id, read at once (the page redraws them live)."""
    script = "return Array.from(document.querySelectorAll(arguments[0])).map(n => n.innerText)"
    return browser.execute_script(script, f'[data-testid="{testid}"]')


def _wait(condition, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_the_arena_page_shows_the_leaderboard_and_finished_games_live(stack, browser, redis_client):
    base = stack.base_url
    http = requests.Session()
    body = {"name": "page arena", "game": "keltis-card", "ends_at": now_ms() + 600_000}
    opened = http.post(
        f"{base}/v1/arenas", json=body, headers={"Authorization": f"Bearer {OPERATOR}"}
    )
    assert opened.status_code == 201, opened.text
    aid = opened.json()["id"]
    browser.get(f"{base}/arenas")
    _wait(lambda: [text for text in _texts(browser, "arena-item") if "page arena" in text])
    browser.get(f"{base}/arenas/{aid}")
    _wait(lambda: _texts(browser, "arena-status") == ["running"])
    names = []
    for n in range(2):
        name = f"pg{n}x{now_ms() % 10**9}"
        made = http.post(f"{base}/v1/accounts", json={"name": name, "bot": True}).json()
        joined = http.post(
            f"{base}/v1/arenas/{aid}/join", headers={"Authorization": f"Bearer {made['key']}"}
        )
        assert joined.status_code == 200
        names.append(name)
    bots = LiveBots(
        GameService(redis_client), ArenaStore(redis_client), aid, {n.lower() for n in names}
    )
    bots.start()
    try:
        games = _wait(
            lambda: (found := _texts(browser, "recent-game")) and len(found) >= 2 and found
        )
        assert any(names[0] in text and names[1] in text for text in games)
        rows = _wait(
            lambda: (
                (found := [r.split() for r in _texts(browser, "board-row")])
                and sum(int(row[3]) for row in found) >= 4  # the games counted live, per bot
                and found
            )
        )
        assert {row[1] for row in rows} == set(names)
    finally:
        bots.stopped.set()
        bots.join(5)
