"""The lobby explains itself. How each game is played (its rule ids link
to /rules, docs/RULES.md served as a page), the bots with a strength hint, a name field
with a default, and "Your games" in words (kind, opponents, status or result) with no two
identical lines."""

from __future__ import annotations

import re

import pytest
import requests

from api.webclient.rules import RULES_PATH
from devtools import webpages
from tests.api.test_web_browser import level_choice
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
    # the document's text is the server's: its one script is the page's language (page.js)
    assert re.findall(r"<script[^>]*>", rules.text) == [
        re.search(r'<script type="module" src="/web/page\.js\?v=\w+">', rules.text).group(0)
    ]


def test_item7_bots_are_listed_once_each_with_their_strength(live_stack, browser):
    """One list of bots, one word each: the levels (greedy, random and mcts are levels),
    named for people, weakest first, the same in the hints and the seat choices."""
    _lobby(browser, live_stack.base_url)
    hints = _js(
        browser,
        "return [...document.querySelectorAll('[data-testid=bot-hints] li')]"
        ".map((li) => [li.dataset.bot, li.textContent])",
    )
    assert [key for key, _ in hints] == [f"level:{n}" for n in range(1, 6)]
    assert hints[0][1].startswith("Level 1 bot · beginner")
    assert all("level:" not in text for _, text in hints)  # never a raw bot name
    options = _js(
        browser,
        "return [...document.querySelectorAll('[data-testid=seat-1] option')].map((o) => o.text)",
    )
    bots = [text for text in options if " bot" in text]
    assert [text.split(" (")[0] for text in bots] == [f"Level {n} bot" for n in range(1, 6)]
    assert not any(text.startswith(("greedy", "random", "mcts")) for text in options)


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
    assert info[0] == ["greedy bot (medium)", "Level 3 bot (medium, about 27 rating)"]
    assert info[1] == "strong"  # a variant of a known bot keeps its hint
    assert info[2] == "other bot"  # an unknown bot: no made-up hint
    assert info[3] == "medium, about 27 rating"


def test_item7_name_has_a_default_and_your_games_read_in_words(live_stack, browser):
    from selenium.webdriver.support.ui import Select

    base = live_stack.base_url
    made = []
    for _ in range(2):  # two games alike: "Card game · you vs Level 4 bot ..." twice
        _lobby(browser, base, clear=not made)
        assert (
            _js(browser, "return document.querySelector('[data-testid=name]').placeholder")
            == "Guest"
        )
        Select(browser.find_element("css selector", "[data-testid=seat-1]")).select_by_value(
            level_choice(base, "keltis-card", "greedy")
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
        assert texts[game_id].startswith("Card game · you vs Level 4 bot · started ")
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
