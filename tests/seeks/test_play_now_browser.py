""" "Play now" in the web lobby, in Debian's headless Chromium against the real stack (a Redis
of these tests' own, gunicorn, a worker pairing seeks): two browsers signed in as two
accounts press Play now and both land at the table of one rated game; alone, an account is
given a built-in pool bot (KELTIS_POOL_BOTS) after the wait."""

from __future__ import annotations

import time
import uuid

import pytest
import requests

from tests.api.test_web_browser import _by_testid, _sign_up_in_fresh_lobby, _wait
from tests.support.chromium import chromium_page
from tests.workers.processes import served

pytestmark = pytest.mark.redis

POOL_WAIT_S = 10  # the two browsers' seeks must both come within it to be paired together
POOL_ENV = {
    "KELTIS_POOL_BOTS": "greedy",
    "KELTIS_POOL_BOT_WAIT_S": str(POOL_WAIT_S),  # 3 s was a window a loaded machine overran
    "KELTIS_PAIR_EVERY_S": "0.2",
}


@pytest.fixture(scope="module")
def stack(private_redis_server):
    with served(private_redis_server.url, POOL_ENV) as stack:
        yield stack


@pytest.fixture(scope="module")
def browsers():
    with chromium_page() as first, chromium_page() as second:
        yield [first, second]


def _table(browser) -> str:
    _wait(
        browser,
        lambda: "/play/" in browser.current_url,
        # A pool bot comes only after the pool's wait; a loaded worker pairs late.
        timeout=POOL_WAIT_S + 60.0,
        what="the table page",
    )
    return browser.current_url.rsplit("/", 1)[1]


def _press_play_now(browser) -> None:
    """Click the lobby's current Play now button, found and clicked in one script (a lobby
    redraw between finding and clicking could leave the click on a button it replaced)."""
    _wait(browser, lambda: _by_testid(browser, "play-now"), what="the Play now button")
    browser.execute_script("document.querySelector('[data-testid=\"play-now\"]').click();")


def _seated_here(browser) -> bool:
    """The table page plays a seat of this browser (its account's key stored for the game)."""
    return browser.execute_script(
        "const id = location.pathname.split('/').pop();"
        "const seat = JSON.parse(localStorage.getItem('keltis.seat.' + id) || 'null');"
        "return !!(seat && seat.token && seat.token.startsWith('kk_'));"
    )


def test_two_accounts_press_play_now_and_sit_at_one_table(stack, browsers):
    base = stack.base_url
    names = ["pn" + uuid.uuid4().hex[:10] for _ in browsers]
    for browser, name in zip(browsers, names, strict=True):
        _sign_up_in_fresh_lobby(browser, base, name)
    for browser in browsers:
        _press_play_now(browser)
    games = [_table(browser) for browser in browsers]
    assert games[0] == games[1]
    assert all(_seated_here(browser) for browser in browsers)
    game = requests.get(f"{base}/v1/games/{games[0]}", timeout=10).json()
    assert game["rated"] is True
    assert sorted(p["name"] for p in game["players"]) == sorted(names)
    for browser in browsers:  # each table shows the game to its seat
        _wait(browser, lambda b=browser: _by_testid(b, "turn"), what="the table")


def test_a_lone_account_gets_a_pool_bot_after_the_wait(stack, browsers):
    base = stack.base_url
    browser = browsers[0]
    name = "pb" + uuid.uuid4().hex[:10]
    _sign_up_in_fresh_lobby(browser, base, name)
    pressed = time.monotonic()
    _press_play_now(browser)
    status = _by_testid(browser, "seek-status")[0]
    _wait(browser, lambda: "opponents" in status.text, what="looking")
    game_id = _table(browser)
    assert time.monotonic() - pressed >= POOL_WAIT_S - 0.5
    game = requests.get(f"{base}/v1/games/{game_id}", timeout=10).json()
    assert sorted(p.get("bot") or p["name"] for p in game["players"]) == sorted([name, "greedy"])
    assert _seated_here(browser)


def test_play_now_signed_out_says_to_sign_in(stack, browsers):
    browser = browsers[1]
    browser.get(stack.base_url + "/")
    browser.execute_script("localStorage.clear()")
    browser.get(stack.base_url + "/")
    _wait(browser, lambda: browser.execute_script("return document.body.dataset.ready"))
    _press_play_now(browser)
    _wait(browser, lambda: "Sign in" in _by_testid(browser, "seek-status")[0].text, what="the hint")
