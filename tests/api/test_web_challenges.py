"""The lobby's challenges in headless Chromium against the real stack: a
signed-in person sees an incoming challenge arrive on its event stream, accepts it with a
click and is taken to its seat; a "challenge" button beside a built-in bot starts a game at
once."""

from __future__ import annotations

import uuid

import pytest
import requests

from tests.api.test_web_browser import (
    _bearer,
    _by_testid,
    _resign,
    _sign_up_in_fresh_lobby,
    _wait,
)
from tests.support.chromium import start_chromium

pytestmark = pytest.mark.redis


@pytest.fixture(scope="module")
def browser():
    driver = start_chromium()
    driver.set_page_load_timeout(20)
    yield driver
    driver.quit()


def test_lobby_shows_an_incoming_challenge_and_accepting_it_seats_the_person(live_stack, browser):
    base = live_stack.base_url
    name = "web-" + uuid.uuid4().hex[:8]
    key = _sign_up_in_fresh_lobby(browser, base, name)
    rival = requests.post(
        f"{base}/v1/accounts", json={"name": "rival-" + uuid.uuid4().hex[:8]}, timeout=10
    ).json()
    body = {"game": "keltis-card", "opponents": [{"account": name}], "seat_order": "given"}
    made = requests.post(
        f"{base}/v1/challenges", json=body, headers=_bearer(rival["key"]), timeout=10
    ).json()
    _wait(browser, lambda: _by_testid(browser, "accept-challenge"), what="the incoming challenge")
    assert rival["name"] in _by_testid(browser, "incoming-challenges")[0].text
    # Find and click in one script (the lobby may redraw its list between a find and a click:
    # a stale element, seen once in CI), and the same for reading and clicking the link.
    _wait(browser, lambda: browser.execute_script(ACCEPT_CLICK), what="the accept button")
    href = _wait(browser, lambda: browser.execute_script(GAME_LINK + " return a && a.href;"))
    after = requests.get(
        f"{base}/v1/challenges/{made['id']}", headers=_bearer(rival["key"]), timeout=10
    ).json()
    assert after["status"] == "accepted"
    assert href.endswith("/play/" + after["game_id"])
    browser.execute_script(GAME_LINK + " a.click();")
    _wait(browser, lambda: f"You play {name}" in _by_testid(browser, "status")[0].text, what="seat")
    _resign(base, after["game_id"], _bearer(key))
    browser.execute_script("localStorage.clear()")


GAME_LINK = "const a = document.querySelector('[data-testid=challenge-game-link]');"
BOT_CLICK = (
    "const b = [...document.querySelectorAll('[data-testid=challenge-bot]')]"
    ".find((x) => x.offsetParent !== null && !x.disabled);"
    " if (b) { b.click(); return true; } return false;"
)
ACCEPT_CLICK = (
    "const b = document.querySelector('[data-testid=accept-challenge]');"
    " if (b) { b.click(); return true; } return false;"
)


def test_lobby_challenges_a_built_in_bot_with_one_click(live_stack, browser):
    base = live_stack.base_url
    name = "web-" + uuid.uuid4().hex[:8]
    key = _sign_up_in_fresh_lobby(browser, base, name)
    # Click and read in one script each: the lobby redraws its lists as events arrive, and an
    # element found by one command may be gone by the next (a stale element, seen in CI).
    _wait(browser, lambda: browser.execute_script(BOT_CLICK), what="bot buttons")
    href = _wait(
        browser, lambda: browser.execute_script(GAME_LINK + " return a && a.href;"), what="link"
    )
    game_id = href.rsplit("/", 1)[1]
    game = requests.get(f"{base}/v1/games/{game_id}", timeout=10).json()
    assert name in [p.get("account") for p in game["players"]]
    _resign(base, game_id, _bearer(key))
    browser.execute_script("localStorage.clear()")
