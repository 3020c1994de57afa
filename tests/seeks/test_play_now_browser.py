""" "Play now" in the web lobby, in Debian's headless Chromium against the real stack (a Redis
of these tests' own, gunicorn, a worker pairing seeks): two browsers signed in as two
accounts press Play now and both land at the table of one rated game; alone, an account is
told which level's bot joins and counts down to it, then sits at its table (the default
pool bots: the levels)."""

from __future__ import annotations

import time
import uuid

import pytest
import requests

from tests.api.test_web_browser import _by_testid, _sign_up_in_fresh_lobby, _wait
from tests.support.chromium import chromium_page
from tests.workers.processes import served, wait_for

pytestmark = pytest.mark.redis

POOL_WAIT_S = 10  # the two browsers' seeks must both come within it to be paired together
POOL_ENV = {
    "KELTIS_POOL_BOT_WAIT_S": str(POOL_WAIT_S),  # 3 s was a window a loaded machine overran
    "KELTIS_PAIR_EVERY_S": "0.2",
    "KELTIS_SEEK_SHARED_NETWORKS": "127.0.0.0/8",  # every client here is this machine
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
    wait_for(
        lambda: "/play/" in browser.current_url,
        # A pool bot comes only after the pool's wait; a loaded worker pairs late.
        POOL_WAIT_S + 60.0,
        lambda: f"the table: at {browser.current_url}, the lobby says {_seek_words(browser)!r}",
        every=0.05,
    )
    return browser.current_url.rsplit("/", 1)[1]


def _seek_words(browser) -> str:
    found = _by_testid(browser, "seek-status")
    return found[0].text if found else ""


def _press_play_now(browser) -> None:
    """Click the lobby's current Play now button, found and clicked in one script (a lobby
    redraw between finding and clicking could leave the click on a button it replaced),
    once seek.js listens to it: the lobby's own module may be ready before it (a click
    before then is lost, and the lobby says nothing)."""
    _wait(
        browser,
        lambda: browser.execute_script(
            "const panel = document.querySelector('[data-testid=\"seek-panel\"]');"
            "return !!panel && panel.dataset.ready === '1';"
        ),
        what="the Play now button",
    )
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


def _countdown(browser) -> int | None:
    found = browser.execute_script(
        "return document.querySelector('[data-testid=\"seek-panel\"]').dataset.countdown;"
    )
    return None if found is None else int(found)


def test_a_lone_account_is_counted_down_to_a_level_bot_then_seated(stack, browsers):
    base = stack.base_url
    browser = browsers[0]
    name = "pb" + uuid.uuid4().hex[:10]
    _sign_up_in_fresh_lobby(browser, base, name)
    pressed = time.monotonic()
    _press_play_now(browser)
    # A newcomer's rating is closest to level 1's: the lobby names it and counts down.
    _wait(browser, lambda: "Level 1 bot joins in" in _seek_words(browser), what="the countdown")
    first = _countdown(browser)
    assert 0 < first <= POOL_WAIT_S
    _wait(browser, lambda: _countdown(browser) < first, what="the countdown going down")
    game_id = _table(browser)
    assert time.monotonic() - pressed >= POOL_WAIT_S - 0.5
    game = requests.get(f"{base}/v1/games/{game_id}", timeout=10).json()
    assert sorted(p.get("bot") or p["name"] for p in game["players"]) == sorted([name, "level:1"])
    assert game["rated"] is True
    assert _seated_here(browser)


def test_play_now_signed_out_says_to_sign_in(stack, browsers):
    browser = browsers[1]
    browser.get(stack.base_url + "/")
    browser.execute_script("localStorage.clear()")
    browser.get(stack.base_url + "/")
    _wait(browser, lambda: browser.execute_script("return document.body.dataset.ready"))
    _press_play_now(browser)
    _wait(browser, lambda: "Sign in" in _by_testid(browser, "seek-status")[0].text, what="the hint")


def test_leaving_the_lobby_while_looking_ends_the_seek_at_once(stack, browsers):
    """Not left to the stream's grace (15 s): a pool bot would come meanwhile, and a second
    Play now on the next page would make a second game."""
    base = stack.base_url
    browser = browsers[1]
    key = _sign_up_in_fresh_lobby(browser, base, "lv" + uuid.uuid4().hex[:10])
    _press_play_now(browser)
    _wait(browser, lambda: _countdown(browser), what="the countdown")
    headers = {"Authorization": f"Bearer {key}"}
    assert len(requests.get(f"{base}/v1/seeks", headers=headers, timeout=10).json()["seeks"]) == 1
    browser.get(base + "/rules")
    wait_for(
        lambda: requests.get(f"{base}/v1/seeks", headers=headers, timeout=10).json()["seeks"] == [],
        5,
        "the seek to end",
    )


def _panel(browser, mark: str):
    return browser.execute_script(
        "return document.querySelector('[data-testid=\"seek-panel\"]').dataset[arguments[0]];",
        mark,
    )


def test_play_now_goes_only_to_its_own_seeks_game(stack, browsers):
    """Another game of the account starting while Play now looks (a challenge to a bot,
    accepted at once) is let by: the lobby goes to the game its seek made."""
    base = stack.base_url
    browser = browsers[0]
    name = "po" + uuid.uuid4().hex[:10]
    key = _sign_up_in_fresh_lobby(browser, base, name)
    lobby = browser.current_url
    _press_play_now(browser)
    _wait(browser, lambda: _panel(browser, "listening") == "1", what="the event stream")
    headers = {"Authorization": f"Bearer {key}"}
    challenge = requests.post(
        f"{base}/v1/challenges",
        headers=headers,
        json={"game": "keltis-card", "opponents": [{"bot": "greedy"}]},
        timeout=10,
    )
    assert challenge.status_code == 201, challenge.text
    other = challenge.json()["game_id"]
    _wait(browser, lambda: _panel(browser, "passed") == other, what="the other game let by")
    assert browser.current_url == lobby and _panel(browser, "state") == "looking"
    game_id = _table(browser)
    assert game_id != other
    game = requests.get(f"{base}/v1/games/{game_id}", timeout=10).json()
    assert sorted(p.get("bot") or p["name"] for p in game["players"]) == sorted([name, "level:1"])
    assert _seated_here(browser)


def test_play_now_says_no_bot_joins_while_the_bot_budget_is_spent(
    stack, browsers, private_redis_server
):
    """With the account's bot CPU budget spent, the lobby never says a bot is joining: it
    says that none joins and that it keeps looking for a person, and no game is made past
    the pool's wait; once the budget pays again, the bot joins."""
    from application.budget.service import Payer, account_budgets

    base = stack.base_url
    browser = browsers[0]
    name = "pr" + uuid.uuid4().hex[:10]
    key = _sign_up_in_fresh_lobby(browser, base, name)
    budgets = account_budgets(private_redis_server.client())
    hour = budgets.account[0].amount_ms / 1000  # the default: 3600 CPU-seconds an hour
    ticket = budgets.admit(Payer.of("", name.lower()), hour)
    _press_play_now(browser)
    _wait(browser, lambda: _panel(browser, "bots") == "refused", what="the refusal")
    words = _seek_words(browser)
    assert "No bot joins now" in words and "Still looking for a person" in words, words
    assert "joining" not in words and _panel(browser, "countdown") is None
    headers = {"Authorization": f"Bearer {key}"}
    seek = requests.get(f"{base}/v1/seeks", headers=headers, timeout=10).json()["seeks"][0]
    assert seek["pool_bots"]["refused"]["code"] == "cpu_budget_exceeded"
    # Past the pool's wait and a few pairing passes (every 0.2 s), still no game, and the
    # lobby still tells the truth.
    opened = seek["created_at"] / 1000
    wait_for(lambda: time.time() > opened + POOL_WAIT_S + 2, POOL_WAIT_S + 5, "the pool wait")
    assert (
        requests.get(f"{base}/v1/seeks", headers=headers, timeout=10).json()["seeks"][0]["games"]
        == []
    )
    assert _panel(browser, "bots") == "refused" and "/play/" not in browser.current_url
    budgets.refund(ticket)  # the budget pays again: the next look at the seek finds the bot
    _wait(browser, lambda: _panel(browser, "bots") != "refused", what="the bot offered again")
    game_id = _table(browser)
    game = requests.get(f"{base}/v1/games/{game_id}", timeout=10).json()
    assert sorted(p.get("bot") or p["name"] for p in game["players"]) == sorted([name, "level:1"])
