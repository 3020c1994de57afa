"""The web pages' goals over the real stack in headless Chromium: no page scrolls sideways at
390 px (lobby, card table, dice table, replay, docs); axe-core reports no serious or
critical accessibility violation on the lobby, both tables, the replay and the rules, in
English, Hungarian and German; a second visit
of the lobby and of a table transfers under 5 KB besides the game's own data (item 10)."""

from __future__ import annotations

import fcntl
import shutil
import subprocess
from pathlib import Path

import pytest

from devtools import webpages
from tests.support.chromium import chromium_page

# The table pages are being rebuilt on the `table` branch, which fixes
# what fails here on main's tables; these marks go when that branch is merged (strict: an
# unexpected pass fails, so a mark cannot outlive its reason).

ROOT = Path(__file__).resolve().parents[2]
AXE_VERSION = "4.14.1"  # pinned; `make axe` installs the same
AXE_DIR = ROOT / "var" / "npm"
AXE_JS = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
SECOND_VISIT_LIMIT = 5 * 1024


@pytest.fixture(scope="module")
def browser():
    with chromium_page(page_load_timeout_s=60) as driver:
        yield driver


@pytest.fixture(scope="module")
def pages(live_stack) -> dict[str, tuple[str, str, dict | None]]:
    """Each page's (url, ready check, game to seat): a card and a dice game where a person
    plays a bot, and the replay of a finished bots' game."""
    base = live_stack.base_url
    card = webpages.create(base, "keltis-card", [{"name": "ann"}, {"name": "rob", "bot": "greedy"}])
    dice = webpages.create(
        base,
        "keltis-dice",
        [{"name": "ann"}, {"name": "rob", "bot": "greedy"}],
        {"board": "advanced"},
    )
    bots = webpages.create(
        base, "keltis-dice", [{"name": "dan", "bot": "greedy"}, {"name": "eve", "bot": "random"}]
    )
    webpages.finished(base, bots)
    return {
        "lobby": (base + "/", webpages.LOBBY_READY, None),
        "card-table": (f"{base}/play/{card['id']}", webpages.TABLE_READY, card),
        "dice-table": (f"{base}/play/{dice['id']}", webpages.TABLE_READY, dice),
        "replay": (f"{base}/v1/games/{bots['id']}/replay.html", webpages.REPLAY_READY, None),
        "docs": (base + "/docs", webpages.DOCS_READY, None),
        "rules": (base + "/rules", "return !!document.getElementById('P3')", None),
    }


# The pages axe checks (Swagger UI's docs page is not ours to fix); all of them and the
# docs page must fit a phone.
AXE_PAGES = ["lobby", "card-table", "dice-table", "replay", "rules"]


def _open(browser, live_stack, pages, name: str, lang: str = "en") -> None:
    """The page in `lang` (the reader's stored choice of language, api/webclient/language.js)."""
    url, ready, game = pages[name]
    if game is not None:
        webpages.seat(browser, live_stack.base_url, game)
    browser.get(live_stack.base_url + "/web/app.css")
    browser.execute_script("localStorage.setItem('keltis.lang', arguments[0])", lang)
    browser.get(url)
    webpages.wait_for(browser, ready)
    if name != "replay":  # the replay viewer is one self-contained English page
        webpages.wait_for(browser, f"return document.documentElement.lang === '{lang}'")


@pytest.mark.parametrize("name", [*AXE_PAGES, "docs"])
def test_goal_no_page_scrolls_sideways_on_a_390px_phone(browser, live_stack, pages, name):
    webpages.phone(browser)
    try:
        _open(browser, live_stack, pages, name)
        widths = browser.execute_script(
            "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
    finally:
        webpages.desktop(browser)
    assert widths[1] == 390 and widths[0] <= 390, f"{name} is {widths[0]} px wide at 390 px"


@pytest.fixture(scope="module")
def axe_source() -> str:
    """axe.min.js from the npm registry (pinned), installed once under var/npm."""
    if not AXE_JS.exists():
        if shutil.which("npm") is None:
            pytest.skip("npm is not installed: `make axe` (or apt-get install npm) gives axe-core")
        AXE_DIR.mkdir(parents=True, exist_ok=True)
        with open(AXE_DIR / ".lock", "w") as lock:  # parallel workers install it once
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not AXE_JS.exists():
                done = subprocess.run(
                    ["npm", "install", "--prefix", str(AXE_DIR), "--no-audit", "--no-fund",
                     f"axe-core@{AXE_VERSION}"],
                    capture_output=True, text=True, timeout=300, check=False,
                )  # fmt: skip
                if done.returncode != 0 or not AXE_JS.exists():
                    pytest.skip(f"axe-core could not be installed from npm: {done.stderr[-400:]}")
    return AXE_JS.read_text(encoding="utf-8")


def _serious(browser, axe_source: str) -> list[str]:
    """axe's serious and critical violations of the page, one line each."""
    browser.execute_script(axe_source)  # run in the page by the test, never shipped to users
    found = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']})"
        ".then((r) => done(r.violations"
        ".filter((v) => ['serious', 'critical'].includes(v.impact))"
        ".map((v) => v.id + ' (' + v.impact + '): '"
        " + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', '))))"
        ".catch((e) => done(['axe failed: ' + e]));"
    )
    return found


@pytest.mark.parametrize("lang", ["en", "hu", "de"])
@pytest.mark.parametrize("name", AXE_PAGES)
def test_goal_axe_finds_no_serious_or_critical_violation(
    browser, live_stack, pages, axe_source, name, lang
):
    _open(browser, live_stack, pages, name, lang)
    browser.set_script_timeout(60)
    found = _serious(browser, axe_source)
    assert not found, f"{name} ({lang}):\n" + "\n".join(found)


@pytest.mark.parametrize("name", ["lobby", "card-table"])
def test_item10_second_visit_transfers_under_5kb_besides_the_games_data(
    browser, live_stack, pages, name
):
    url, ready, game = pages[name]
    if game is not None:
        webpages.seat(browser, live_stack.base_url, game)
    first, second = webpages.second_visit_bytes(browser, url, ready)
    assert first > SECOND_VISIT_LIMIT  # the first visit did load the files ...
    assert second < SECOND_VISIT_LIMIT, f"{name}: {second} bytes on a second visit"  # ... once
