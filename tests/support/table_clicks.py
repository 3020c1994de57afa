"""Playing a game at the web table by clicks only, as a person does: a card is
picked in the hand and then its target (its row, its discard pile, a wishing stone), a
draw is a click on the deck or a pile top; dice are chosen and a choice clicked."""

from __future__ import annotations

import json

import requests

from tests.workers.processes import wait_for

# What the page offers now: "over", "wait" (not the viewer's turn, or steps still shown),
# "pick" (hand cards to pick), or "target" (something to click that sends a move).
STATE = """
const status = document.querySelector('[data-testid=status]');
if (['finished', 'cancelled', 'expired'].includes(status.dataset.state)) return 'over';
if (document.querySelector('[data-testid=turn]').dataset.mine !== '1') return 'wait';
const targets = '[data-testid=table] button.target:not([disabled]),'
  + ' [data-testid=moves] button[data-move]:not([disabled]), [data-testid=pick-die-0]';
if (document.querySelector(targets)) return 'target';
const cards = '[data-testid=hand-card][data-playable="1"]:not([disabled])';
if (document.querySelector(cards)) return 'pick';
return 'wait';
"""

# The first enabled target, a lay preferred over a discard over the rest (so that rows grow).
# A draw takes the deck, except every fourth target click, which prefers a pile: drawing a
# pile's top each turn (the card just discarded, say) leaves the deck to the other seat alone
# and made a game run past the click limit (811 versions).
FIRST_TARGET = """
const clicks = window.keltisTargetClicks = (window.keltisTargetClicks || 0) + 1;
const deckFirst = clicks % 4 !== 0 ? ['[data-testid=deck]'] : [];
const order = ['[data-testid^=target-row-]', ...deckFirst, '[data-testid^=pile-button-]',
               '[data-testid=deck]', '[data-testid=stop]', '[data-testid=moves] [data-testid=move]',
               'button.target'];
for (const selector of order) {
  const found = [...document.querySelectorAll(selector)]
    .find((b) => b.tagName === 'BUTTON' && !b.disabled && b.dataset.move);
  if (found) return found;
}
return null;
"""


def by_testid(browser, testid):
    from selenium.webdriver.common.by import By

    return browser.find_elements(By.CSS_SELECTOR, f'[data-testid="{testid}"]')


def page_state(browser) -> str:
    status = by_testid(browser, "status")
    error = by_testid(browser, "error")
    return (
        f"status={status[0].text if status else None!r} error={error[0].text if error else None!r}"
    )


def wait_page(browser, condition, timeout=30.0, what="condition"):
    return wait_for(condition, timeout, lambda: f"{what}: {page_state(browser)}", every=0.03)


def open_seat(browser, base: str, made: dict, seat: int = 0, pace_ms: int = 0) -> None:
    """Open the table of `made` (a POST /v1/games answer) as `seat`, steps `pace_ms` apart."""
    token = next(s for s in made["seats"] if s["seat"] == seat)
    stored = {"seat": seat, "token": token["token"], "name": token["name"]}
    browser.get(base + "/")
    browser.execute_script(
        "localStorage.setItem('keltis.seat.' + arguments[0], arguments[1]);"
        "localStorage.setItem('keltis.pace', arguments[2]);",
        made["id"],
        json.dumps(stored),
        str(pace_ms),
    )
    browser.get(f"{base}/play/{made['id']}")
    wait_page(browser, lambda: "You play" in by_testid(browser, "status")[0].text, what="seat")


def create_game(base: str, game: str, bot: str, options: dict | None = None) -> dict:
    """A game of a person ("ann", seat 0) against `bot` (seat 1)."""
    body = {"game": game, "players": [{"name": "ann"}, {"name": "bot", "bot": bot}]}
    if options:
        body["options"] = options
    answer = requests.post(f"{base}/v1/games", json=body, timeout=10)
    assert answer.status_code == 201, answer.text
    return answer.json()


def click_once(browser, reroll_first: bool = False) -> str:
    """One click of the viewer's turn: pick a hand card, or click a target; what it did."""
    from selenium.common.exceptions import StaleElementReferenceException

    state = wait_page(
        browser,
        lambda: (s := browser.execute_script(STATE)) != "wait" and s,
        what="my turn or the end",
    )
    if state == "over":
        return "over"
    try:
        if state == "pick":
            # A card not picked yet first: a second click on a picked card unpicks it.
            card = browser.execute_script(
                "const cards = '[data-testid=hand-card][data-playable=\"1\"]:not([disabled])';"
                "return document.querySelector(cards + ':not([aria-pressed=true])')"
                " || document.querySelector(cards);"
            )
            if card is None:
                return "stale"
            card.click()
            return "pick"
        if reroll_first and by_testid(browser, "pick-die-0"):
            for testid in ("pick-die-0", "pick-die-2", "reroll"):
                by_testid(browser, testid)[0].click()
            return "reroll"
        button = browser.execute_script(FIRST_TARGET)
        if button is None:
            return "none"
        button.click()
        return "move"
    except StaleElementReferenceException:
        return "stale"  # the table redrew under the click: look again


def click_settled(browser, reroll_first: bool = False, tries: int = 10) -> str:
    """`click_once`, tried again while the table redraws under it ("stale": an opponent's
    move or the clock re-rendered the hand between looking and clicking); what it did."""
    did = "stale"
    for _ in range(tries):
        did = click_once(browser, reroll_first)
        if did != "stale":
            return did
    return did


def play_whole_game(browser, limit: int, reroll_first: bool = False, each_step=None) -> int:
    """Click until the game is over; the number of moves sent. `each_step(browser, did)`
    is called after every click (a check of the page as it is then)."""
    sent = 0
    rerolled = False
    history: list[str] = []
    for _ in range(limit):
        did = click_once(browser, reroll_first=reroll_first and not rerolled)
        history.append(did)
        if each_step is not None:
            each_step(browser, did)
        if did == "over":
            return sent
        if did == "reroll":
            rerolled = True
        if did in ("move", "reroll"):
            sent += 1
            await_answer(browser)
    raise AssertionError(
        f"no end after {limit} clicks ({sent} moves sent), the last ones: {history[-30:]}; "
        f"{page_state(browser)}; hint {hint_text(browser)!r}"
    )


def click_until(browser, done, limit: int, reroll_first: bool = False) -> list[str]:
    """`click_settled` until `done()` (the game must not end first), each move's answer
    awaited; what each click did."""
    clicks: list[str] = []
    for _ in range(limit):
        if done():
            return clicks
        did = click_settled(browser, reroll_first=reroll_first and "reroll" not in clicks)
        assert did != "over", clicks
        clicks.append(did)
        if did in ("move", "reroll"):
            await_answer(browser)
    raise AssertionError(f"not done after {limit} clicks: {clicks[-20:]}; {page_state(browser)}")


def await_answer(browser) -> None:
    """Wait until the page has the answer to the move it sent."""
    wait_page(
        browser,
        lambda: browser.execute_script(
            "return document.querySelector('[data-testid=turn]').textContent"
            " !== 'Sending your move…'"
        ),
        what="the move's answer",
    )


class Deaf:
    """While open, the page hears no events (its stream and long polls are blocked through
    the DevTools protocol), so a move made elsewhere does not redraw its table. With
    `game_id`, its reads of that game's state are held back too until the block ends (a
    failed stream makes the page read the game again, which would redraw it); its moves
    still go through."""

    def __init__(self, browser, game_id: str | None = None):
        self.browser = browser
        self.game_id = game_id

    def __enter__(self):
        self.browser.execute_cdp_cmd("Network.enable", {})
        blocked = {"urls": ["*/stream*", "*/events*"]}
        self.browser.execute_cdp_cmd("Network.setBlockedURLs", blocked)
        if self.game_id:
            self.browser.execute_script(HOLD_READS, "/v1/games/" + self.game_id)
        return self

    def __exit__(self, *exc):
        if self.game_id:
            self.browser.execute_script("window.__keltisHold = null;")
        self.browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        self.browser.execute_cdp_cmd("Network.disable", {})


# The page's GETs of one path wait while window.__keltisHold names it (fetch is looked up at
# each call, so wrapping it once holds every later read).
HOLD_READS = """
window.__keltisHold = arguments[0];
if (!window.__keltisFetch) {
  window.__keltisFetch = window.fetch;
  window.fetch = (url, options) => {
    const path = new URL(String(url), location.href).pathname;
    const read = !options || !options.method || options.method === "GET";
    if (!read || path !== window.__keltisHold) return window.__keltisFetch(url, options);
    return new Promise((resolve) => {
      const wait = setInterval(() => {
        if (window.__keltisHold === path) return;
        clearInterval(wait);
        resolve(window.__keltisFetch(url, options));
      }, 50);
    });
  };
}
"""


def hint_text(browser) -> str:
    """The hand's hint line, read in one script (the table may redraw at any time)."""
    return browser.execute_script(
        "const hint = document.querySelector('[data-testid=hint]');"
        "return hint ? hint.textContent : '';"
    )
