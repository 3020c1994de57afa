"""The pages in Hungarian and German, in Debian's headless Chromium over the real stack: the
language comes from the switch (kept in local storage) or from the browser's languages
(Accept-Language), <html lang> follows it, the lobby and both tables speak it, an error
code is shown in its words, and a card table in either language fits 1280x800 unscrolled."""

from __future__ import annotations

import re

import pytest
import requests

from devtools import webpages
from tests.api.test_web_i18n import catalog
from tests.support.chromium import chromium_page

pytestmark = pytest.mark.redis

STORED = "keltis.lang"


@pytest.fixture(scope="module")
def browser():
    with chromium_page(width=1280, height=800, page_load_timeout_s=60) as driver:
        yield driver


@pytest.fixture(scope="module")
def games(live_stack) -> dict:
    """A card and a dice game of a person against greedy, a few moves in."""
    players = [{"name": "ann"}, {"name": "rob", "bot": "greedy"}]
    options = {"card": None, "dice": {"board": "advanced"}}
    return {
        kind: webpages.create(live_stack.base_url, f"keltis-{kind}", players, chosen)
        for kind, chosen in options.items()
    }


def choose(browser, base: str, lang: str | None) -> None:
    """Store a language choice in the browser (None: no choice stored)."""
    browser.get(base + "/web/app.css")
    if lang is None:
        browser.execute_script("localStorage.removeItem(arguments[0])", STORED)
    else:
        browser.execute_script("localStorage.setItem(arguments[0], arguments[1])", STORED, lang)


def browser_languages(browser, accept: str | None) -> None:
    """The browser's languages (navigator.languages and Accept-Language); None: its own."""
    agent = browser.execute_script("return navigator.userAgent")
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd(
        "Network.setUserAgentOverride", {"userAgent": agent, "acceptLanguage": accept or "en-US"}
    )


def text(browser, selector: str) -> str:
    return browser.execute_script(
        "const e = document.querySelector(arguments[0]); return e ? e.textContent.trim() : null",
        selector,
    )


def lang_of(browser) -> str:
    return browser.execute_script("return document.documentElement.lang")


def open_page(browser, url: str, ready: str, lang: str) -> None:
    browser.get(url)
    try:
        webpages.wait_for(browser, ready)
        webpages.wait_for(browser, f"return document.documentElement.dataset.lang === '{lang}'")
    except TimeoutError as late:
        seen = browser.execute_script("return document.body.innerText.slice(0, 300)")
        raise AssertionError(f"{url} in {lang}: {seen!r} {browser.get_log('browser')}") from late


def open_table(browser, base: str, made: dict, lang: str) -> dict:
    """The table of `made` as its seat 0 sees it, in `lang`; that language's catalog."""
    webpages.seat(browser, base, made)
    choose(browser, base, lang)
    open_page(browser, f"{base}/play/{made['id']}", webpages.TABLE_READY, lang)
    return catalog(lang)


def test_english_stays_the_default(live_stack, browser):
    choose(browser, live_stack.base_url, None)
    browser_languages(browser, None)
    open_page(browser, live_stack.base_url + "/", webpages.LOBBY_READY, "en")
    assert lang_of(browser) == "en"
    assert text(browser, "h1") == "Play and watch"
    assert browser.execute_script("return document.getElementById('lang-switch').value") == "en"


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_the_switch_chooses_the_language_and_keeps_it(live_stack, browser, lang):
    base = live_stack.base_url
    choose(browser, base, None)
    browser_languages(browser, None)
    open_page(browser, base + "/", webpages.LOBBY_READY, "en")
    from selenium.webdriver.support.ui import Select

    switch = browser.find_element("css selector", "[data-testid=lang-switch]")
    label = browser.execute_script(
        "return document.querySelector('label[for=lang-switch]').textContent"
    )
    assert label == "Language"  # the switch is named for screen readers
    Select(switch).select_by_value(lang)  # the page is drawn again in it
    webpages.wait_for(browser, f"return document.documentElement.dataset.lang === '{lang}'")
    webpages.wait_for(browser, webpages.LOBBY_READY)
    words = catalog(lang)
    assert lang_of(browser) == lang
    assert text(browser, "h1") == words["lobby.heading"]
    assert text(browser, "[data-testid=play-now]") == words["seek.playNow"]
    assert text(browser, "[data-testid=create]") == words["lobby.create"]
    assert browser.title == words["lobby.pageTitle"]
    assert browser.execute_script("return localStorage.getItem(arguments[0])", STORED) == lang
    # the rules' summary keeps its links to the rules
    assert browser.execute_script(
        "return [...document.querySelectorAll('[data-testid=about-card] a')].map((a) => a.hash)"
    )[:1] == ["#D1"]
    # the next page opens in the stored language
    open_page(browser, base + "/leaderboard", "return document.body.dataset.ready === '1'", lang)
    assert text(browser, "h1") == words["nav.leaderboards"]


def page_widths(browser) -> list[int]:
    return browser.execute_script(
        "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_the_lobby_fits_a_desktop_and_a_phone_in_the_language(live_stack, browser, lang):
    """Longer words than English: no panel, fieldset or choice runs wider than the screen."""
    base = live_stack.base_url
    choose(browser, base, lang)
    open_page(browser, base + "/", webpages.LOBBY_READY, lang)
    desktop = page_widths(browser)
    webpages.phone(browser)
    try:
        open_page(browser, base + "/", webpages.LOBBY_READY, lang)
        phone = page_widths(browser)
    finally:
        webpages.desktop(browser)
    assert desktop[0] <= desktop[1], f"the {lang} lobby is {desktop[0]} px wide at 1280"
    assert phone[0] <= phone[1], f"the {lang} lobby is {phone[0]} px wide at 390 px"


@pytest.mark.parametrize(
    ("accept", "lang"),
    [
        ("hu-HU,hu;q=0.9,en;q=0.5", "hu"),
        ("de-AT,de", "de"),
        ("fr-FR,de;q=0.7", "de"),
        ("ja,fr", "en"),
    ],
)
def test_without_a_choice_the_browsers_languages_decide(live_stack, browser, accept, lang):
    base = live_stack.base_url
    choose(browser, base, None)
    browser_languages(browser, accept)
    try:
        open_page(browser, base + "/", webpages.LOBBY_READY, lang)
        assert lang_of(browser) == lang
        assert text(browser, "h1") == catalog(lang)["lobby.heading"]
        # a stored choice wins over the browser's languages
        choose(browser, base, "en")
        open_page(browser, base + "/", webpages.LOBBY_READY, "en")
    finally:
        browser_languages(browser, None)


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_a_card_table_speaks_the_language_and_fits_the_screen(live_stack, browser, games, lang):
    base = live_stack.base_url
    made = games["card"]
    words = open_table(browser, base, made, lang)
    webpages.wait_for(
        browser, "return document.querySelectorAll('[data-testid=log] li').length > 0"
    )
    assert lang_of(browser) == lang
    assert words["play.youPlay"].split("{")[0] in text(browser, "[data-testid=status]")
    assert text(browser, ".hand h3").startswith(words["table.yourHand"])
    log = browser.execute_script(
        "return [...document.querySelectorAll('[data-testid=log] li')].map((li) => li.textContent)"
    )
    assert words["event.game_started"] in log
    assert words["colour.blue"] in text(browser, "[data-testid=legend]")
    # 1280x800: the table fits its window (1280x657 of page) without a scroll, and no
    # German or Hungarian word runs over its box
    scroll, overflowing = browser.execute_script(
        "const over = [...document.querySelectorAll('.felt *, .turn *, .top *')]"
        "  .filter((e) => e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0"
        "                 && getComputedStyle(e).overflowX === 'visible'"
        "                 && !e.classList.contains('strip')"
        "                 && !(e.closest('details') && !e.closest('details').open))"
        "  .map((e) => e.tagName + '.' + e.className + ': ' + e.textContent.slice(0, 30));"
        "return [document.documentElement.scrollHeight - innerHeight, over];"
    )
    assert scroll <= 0, f"the {lang} card table scrolls by {scroll} px"
    assert overflowing == []
    webpages.phone(browser)
    try:
        browser.get(f"{base}/play/{made['id']}")
        webpages.wait_for(browser, webpages.TABLE_READY)
        widths = page_widths(browser)
    finally:
        webpages.desktop(browser)
    assert widths[0] <= widths[1], f"the {lang} card table is {widths[0]} px wide at 390 px"


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_a_dice_table_speaks_the_language(live_stack, browser, games, lang):
    words = open_table(browser, live_stack.base_url, games["dice"], lang)
    side = words["side.advanced"]
    assert text(browser, ".board h3") == words["dice.board"].replace("{side}", side)
    assert words["dice.supply"] in text(browser, ".dice-table .centre")
    assert words["dice.howScores"] == text(browser, ".dice-table summary")
    # the scores' box is as wide as in English: no column of it is hidden sideways
    box = browser.execute_script(
        "const box = document.querySelector('.score-box');return [box.scrollWidth, box.clientWidth]"
    )
    assert box[0] <= box[1], f"the {lang} scores are {box[0]} px wide in a {box[1]} px box"


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_an_error_code_is_shown_in_the_language(live_stack, browser, lang):
    """Signing in with a key that does not exist: the answer's code, in the reader's words."""
    base = live_stack.base_url
    refused = requests.get(f"{base}/v1/me", headers={"Authorization": "Bearer nope"}, timeout=10)
    code = refused.json()["error"]["code"]
    choose(browser, base, lang)
    open_page(browser, base + "/", webpages.LOBBY_READY, lang)
    browser.find_element("css selector", "[data-testid=account-key]").send_keys("nope")
    browser.find_element("css selector", "[data-testid=sign-in]").click()
    webpages.wait_for(
        browser, "return !document.querySelector('[data-testid=account-error]').hidden"
    )
    assert text(browser, "[data-testid=account-error]") == catalog(lang)[f"errors.{code}"]


def test_an_unknown_error_code_falls_back_to_the_servers_message(live_stack, browser):
    base = live_stack.base_url
    module = requests.get(f"{base}/web/api.js", timeout=10).text
    i18n = re.search(r'"(\./i18n\.js\?v=[0-9a-f]+)"', module).group(1)
    german = re.search(
        r'"(\./lang-de\.js\?v=[0-9a-f]+)"', requests.get(f"{base}/web/language.js", timeout=10).text
    ).group(1)
    browser.get(base + "/web/app.css")
    said = browser.execute_async_script(
        "const [i18n, de, done] = arguments;"
        "Promise.all([import('/web/api.js'), import('/web/' + i18n.slice(2)),"
        "             import('/web/' + de.slice(2))])"
        ".then(([api, words, catalog]) => {"
        "  words.useCatalog('de', catalog.messages);"
        "  done([api.errorWords(422, {code: 'no_such_code', message: 'the server words',"
        "                             rule: 'P3'}),"
        "        api.errorWords(409, {code: 'version_conflict', message: 'x', rule: null})]);"
        "}).catch((e) => done(String(e)));",
        i18n,
        german,
    )
    words = catalog("de")
    assert said[0] == words["status.http422"] + ": the server words" + words["errors.rule"].replace(
        "{rule}", "P3"
    )
    assert said[1] == words["errors.version_conflict"]


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_the_rules_page_is_in_the_language_with_its_anchors(live_stack, browser, lang):
    base = live_stack.base_url
    choose(browser, base, lang)
    open_page(browser, base + "/rules#P3", "return document.body.dataset.lang", lang)
    assert text(browser, "h1") == catalog(lang)["rules.heading"]
    assert text(browser, "[data-testid=rules-language]") == catalog(lang)["rules.languageNote"]
    shown, anchored, marked, seen = browser.execute_script(
        "const shown = [...document.querySelectorAll('[data-rules-lang]')]"
        "  .filter((s) => !s.hidden);"
        "const rule = document.getElementById('P3');"
        "const box = rule.getBoundingClientRect();"
        "return [shown.map((s) => s.lang), document.querySelectorAll('[id=P3]').length,"
        "        rule.classList.contains('targeted') && rule.closest('section').lang,"
        "        box.top >= 0 && box.top < innerHeight];"
    )
    assert shown == [lang] and anchored == 1 and marked == lang and seen
    choose(browser, base, "en")
    open_page(browser, base + "/rules", "return document.body.dataset.lang", "en")
    assert browser.execute_script(
        "return document.querySelector('[data-testid=rules-language]').hidden"
        " && !document.querySelector('[data-rules-lang=en]').hidden"
        " && document.getElementById('P3').closest('section').lang === 'en'"
    )


@pytest.mark.parametrize("lang", ["hu", "de"])
def test_a_second_visit_in_the_language_transfers_under_5kb(live_stack, browser, lang):
    """Its catalog is one more versioned module: kept for good like the others."""
    base = live_stack.base_url
    choose(browser, base, lang)
    ready = webpages.LOBBY_READY + f" && document.documentElement.dataset.lang === '{lang}'"
    first, second = webpages.second_visit_bytes(browser, base + "/", ready)
    catalogs = [e["url"] for e in browser.execute_script(webpages.TRANSFERRED)]
    assert any(f"/web/lang-{lang}.js?v=" in url for url in catalogs)  # loaded by its version
    assert first > 5 * 1024
    assert second < 5 * 1024, f"{lang}: {second} bytes on a second visit"
