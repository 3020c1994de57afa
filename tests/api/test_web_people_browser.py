"""The leaderboards and an account's page in Debian's headless Chromium against the real
stack (gunicorn, a worker, Redis): the leaderboard lists the ladder, a name leads to the
account's page, which shows its games and a rating chart with a point per rated game, and
fits a phone's screen; an unknown account's page says there is none."""

from __future__ import annotations

import secrets

import pytest
import requests

from application.games.service import GameService
from application.games.settle import settle_due
from cli.serve import start_stack
from tests.api.helpers import bearer, move_each_once_over_http
from tests.support.chromium import chromium_page
from tests.support.ports import free_port
from tests.workers.processes import wait_for

pytestmark = pytest.mark.redis
CARD = "keltis-card"


@pytest.fixture
def stack(private_redis, private_redis_server):
    """The stack over a server of the tests' own, flushed first: the ladder is only ours."""
    served = start_stack(port=free_port(), web_workers=1, redis_url=private_redis_server.url)
    yield served
    served.stop()


@pytest.fixture
def browser():
    with chromium_page() as driver:
        yield driver


def _wait(condition, what: str, timeout: float = 20.0):
    return wait_for(condition, timeout, what, every=0.03)


def _testid(browser, testid: str, within: str = ""):
    from selenium.webdriver.common.by import By

    return browser.find_elements(By.CSS_SELECTOR, f'{within} [data-testid="{testid}"]'.strip())


def _account(base: str, prefix: str) -> tuple[str, str]:
    name = f"{prefix}{secrets.token_hex(3)}"
    made = requests.post(f"{base}/v1/accounts", json={"name": name, "bot": True}, timeout=10)
    assert made.status_code == 201, made.text
    return name, made.json()["key"]


def _duel(base: str, winner: tuple[str, str], loser: tuple[str, str]) -> str:
    """A rated game the winner creates and the loser joins (each with its key), resigned by
    the loser once each has moved; its id."""
    body = {"game": CARD, "players": [{"account": winner[0]}, {"open": True}], "rated": True}
    made = requests.post(f"{base}/v1/games", json=body, headers=bearer(winner[1]), timeout=10)
    assert made.status_code == 201, made.text
    game_id = made.json()["id"]
    join = f"{base}/v1/games/{game_id}/seats/1/join"
    assert requests.post(join, json={}, headers=bearer(loser[1]), timeout=10).ok
    move_each_once_over_http(base, game_id, {0: winner[1], 1: loser[1]})
    resigned = requests.post(f"{base}/v1/games/{game_id}/resign", headers=bearer(loser[1]))
    assert resigned.ok, resigned.text
    return game_id


def test_leaderboard_leads_to_an_account_page_with_its_games_and_rating_chart(
    stack, browser, private_redis
):
    base = stack.base_url
    ria, ria_key = _account(base, "Ria")
    sol, sol_key = _account(base, "Sol")
    _duel(base, (ria, ria_key), (sol, sol_key))
    _duel(base, (sol, sol_key), (ria, ria_key))
    _duel(base, (ria, ria_key), (sol, sol_key))
    body = {"game": CARD, "players": [{"account": ria}, {"bot": "greedy"}]}
    made = requests.post(f"{base}/v1/games", json=body, headers=bearer(ria_key), timeout=10)
    playing = made.json()["id"]
    history = f"{base}/v1/accounts/{ria}/ratings/history"

    def folded():
        settle_due(GameService(private_redis))  # the worker settles too: either is once
        points = requests.get(history, params={"game": CARD}, timeout=10).json()["points"]
        return len(points) == 3

    _wait(folded, "three rated games in the ladder")

    browser.get(base + "/")
    _testid(browser, "leaderboards")[0].click()
    _wait(lambda: browser.execute_script("return document.body.dataset.ready"), "leaderboard")
    names = [a.text for a in _testid(browser, "board-name")]
    assert sorted(names) == sorted([ria, sol])
    assert names[0] == ria  # two wins of three: the better ordinal
    [link] = [a for a in _testid(browser, "board-name") if a.text == ria]
    link.click()
    _wait(lambda: browser.current_url.endswith(f"/accounts/{ria}"), "the account page")
    _wait(lambda: browser.execute_script("return document.body.dataset.ready"), "account page")
    assert _testid(browser, "title")[0].text == ria
    assert not _testid(browser, "error")[0].is_displayed()
    listed = [item.get_attribute("data-game") for item in _testid(browser, "account-game")]
    assert len(listed) == 4 and listed[0] == playing
    chart = _testid(browser, "chart-keltis-card")[0]
    assert chart.tag_name == "svg" and chart.get_attribute("role") == "img"
    assert len(_testid(browser, "chart-point", '[data-testid="chart-keltis-card"]')) == 3
    desc = browser.execute_script(
        "return document.querySelector('[data-testid=chart-keltis-card] desc').textContent"
    )
    assert "3 rated games" in desc
    rows = browser.execute_script(
        "return document.querySelectorAll('[data-testid=chart-box-keltis-card] tbody tr').length"
    )
    assert rows == 3  # the table beside the chart holds the same points
    try:
        browser.set_window_size(390, 844)
        width = browser.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], width  # nothing wider than the phone's screen
        browser.get(base + "/leaderboard")
        _wait(lambda: browser.execute_script("return document.body.dataset.ready"), "board")
        width = browser.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], width
    finally:
        browser.set_window_size(1280, 1000)
    browser.get(base + "/accounts/nobody")  # an unknown account's page says so
    _wait(lambda: browser.execute_script("return document.body.dataset.ready"), "account page")
    assert "no account named nobody" in _testid(browser, "error")[0].text
