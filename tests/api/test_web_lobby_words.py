"""Issue 26 item 7: the lobby explains itself. How each game is played (its rule ids link
to /rules, docs/RULES.md served as a page), the bots with a strength hint, a name field
with a default, and "Your games" in words (kind, opponents, status or result) with no two
identical lines."""

from __future__ import annotations

import re

import pytest
import requests

from api.webclient.rules import RULES_PATH
from devtools import webpages
from tests.support.chromium import chromium_page


@pytest.fixture(scope="module")
def browser():
    with chromium_page(page_load_timeout_s=60) as driver:
        yield driver


def _lobby(browser, base: str, clear: bool = True) -> None:
    browser.get(base + "/")
    if clear:
        browser.execute_script("localStorage.clear()")
        browser.get(base + "/")
    webpages.wait_for(browser, webpages.LOBBY_READY)


def _js(browser, script: str, *args):
    return browser.execute_script(script, *args)


def test_item7_rule_ids_in_the_lobby_link_to_anchors_of_the_rules_page(live_stack):
    base = live_stack.base_url
    lobby = requests.get(base + "/", timeout=10).text
    linked = set(re.findall(r'href="/rules#([A-Z]\d+)"', lobby))
    assert {"P1", "P2", "P3", "D1", "E1", "K1", "T1", "T3", "F1"} <= linked
    rules = requests.get(base + "/rules", timeout=10)
    assert rules.status_code == 200 and "text/html" in rules.headers["Content-Type"]
    anchors = set(re.findall(r'<li id="([A-Z]\d+)">', rules.text))
    assert linked <= anchors
    documented = set(re.findall(r"\*\*([A-Z]\d+)\.\*\*", RULES_PATH.read_text()))
    assert anchors == documented  # every rule of docs/RULES.md has its anchor
    assert "<script" not in rules.text  # the document's text, no script of its own


def test_item7_bots_are_listed_with_their_strength(live_stack, browser):
    _lobby(browser, live_stack.base_url)
    hints = _js(
        browser,
        "return Object.fromEntries([...document.querySelectorAll('[data-testid=bot-hints] li')]"
        ".map((li) => [li.dataset.bot, li.textContent]))",
    )
    # a built-in bot that is a level's recipe (keltis-card's: the lobby's first game) has
    # that level's word: random is level 1, greedy level 4, mcts level 5
    assert "beginner" in hints["random"] and "strong," in hints["greedy"]
    assert "strongest" in hints["mcts"] and "rating" in hints["greedy"]
    # weakest first: the levels in their order, each built-in bot beside its level's word
    listed = _js(  # an array: the driver may not keep an object's key order
        browser,
        "return [...document.querySelectorAll('[data-testid=bot-hints] li')]"
        ".map((li) => li.dataset.bot)",
    )
    levels = [name for name in listed if name.startswith("level:")]
    assert levels == sorted(levels)
    assert listed.index("level:1") < listed.index("random") < listed.index("greedy")
    assert listed.index("level:4") < listed.index("greedy") < listed.index("level:5")
    assert listed.index("level:5") < listed.index("mcts")
    options = _js(
        browser,
        "return [...document.querySelectorAll('[data-testid=seat-1] option')].map((o) => o.text)",
    )
    assert "greedy bot (strong)" in options and "mcts bot (strongest)" in options


def test_item7_a_bot_described_by_the_service_shows_the_services_words(live_stack, browser):
    _lobby(browser, live_stack.base_url)
    info = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "import('/web/bots.js').then((m) => {"
        " const listed = m.botsByGame({games: [{game: 'keltis-card', bots: ['greedy', 'level:3'],"
        " levels: [{name: 'level:3', level: 3, strength: 'medium', rating: 27.4}]}]});"
        " done([listed['keltis-card'].map(m.botLabel), m.botInfo('mcts:i200').strength,"
        " m.botLabel(m.botInfo('other')), m.strengthWords(listed['keltis-card'][1])]); });"
    )
    assert info[0] == ["greedy bot (medium)", "level 3, about 27 rating (medium)"]
    assert info[1] == "strong"  # a variant of a known bot keeps its hint
    assert info[2] == "other bot"  # an unknown bot: no made-up hint
    assert info[3] == "medium, about 27 rating"


def test_item7_name_has_a_default_and_your_games_read_in_words(live_stack, browser):
    from selenium.webdriver.support.ui import Select

    base = live_stack.base_url
    made = []
    for _ in range(2):  # two games alike: "Card game · you vs greedy (bot) ..." twice
        _lobby(browser, base, clear=not made)
        assert (
            _js(browser, "return document.querySelector('[data-testid=name]').placeholder")
            == "Guest"
        )
        Select(browser.find_element("css selector", "[data-testid=seat-1]")).select_by_value(
            "bot:greedy"
        )
        browser.find_element("css selector", "[data-testid=create]").click()
        webpages.wait_for(browser, "return location.pathname.startsWith('/play/')")
        made.append(browser.current_url.rsplit("/", 1)[1])
    game = requests.get(f"{base}/v1/games/{made[0]}", timeout=10).json()
    assert game["players"][0]["name"] == "Guest"  # an empty name field plays as Guest
    _lobby(browser, base, clear=False)
    listed = "[...document.querySelectorAll('[data-testid=my-games] li[data-game]')]"
    webpages.wait_for(browser, f"return {listed}.length >= 2")
    lines = _js(browser, f"return {listed}.map((li) => [li.dataset.game, li.textContent])")
    texts = {game_id: text for game_id, text in lines}
    assert set(made) <= set(texts)
    for game_id in made:
        assert texts[game_id].startswith("Card game · you vs greedy (bot) · started ")
        assert game_id not in texts[game_id]  # never the raw id ...
    assert len(set(texts.values())) == len(texts)  # ... and no two lines alike
    for game_id in made:
        requests.post(
            f"{base}/v1/games/{game_id}/resign",
            headers={"Authorization": "Bearer " + _seat_token(browser, game_id)},
            timeout=10,
        )


def _seat_token(browser, game_id: str) -> str:
    return _js(
        browser,
        "return JSON.parse(localStorage.getItem('keltis.seat.' + arguments[0])).token",
        game_id,
    )
