"""The web client in Debian's headless Chromium against the real stack (gunicorn, a worker,
Redis): a person creates games in the lobby and plays them by clicking only, and a
spectator's page holds no hidden card, neither in its DOM nor in any answer it received."""

from __future__ import annotations

import json
import time
import uuid
from collections import Counter

import pytest
import requests

from tests.support.chromium import chromium_page
from tests.support.table_clicks import Deaf, click_settled, click_until
from tests.workers.processes import wait_for

pytestmark = pytest.mark.redis

# Wraps fetch before any page script runs: every answer's body (streams too, as they arrive)
# is kept in window.__answers for the test to scan.
RECORD_ANSWERS = """
window.__answers = [];
const original = window.fetch.bind(window);
window.fetch = async (...args) => {
  const response = await original(...args);
  if (!response.body) return response;
  const [mine, theirs] = response.body.tee();
  const record = {url: response.url, body: ""};
  window.__answers.push(record);
  (async () => {
    const reader = mine.getReader(); const decoder = new TextDecoder();
    for (;;) { const {value, done} = await reader.read(); if (done) break;
               record.body += decoder.decode(value, {stream: true}); }
  })();
  return new Response(theirs, {status: response.status, statusText: response.statusText,
                               headers: response.headers});
};
"""


@pytest.fixture(scope="module")
def browser():
    with chromium_page() as driver:
        yield driver


def _by_testid(browser, testid):
    from selenium.webdriver.common.by import By

    return browser.find_elements(By.CSS_SELECTOR, f'[data-testid="{testid}"]')


def _wait(browser, condition, timeout=20.0, what="condition"):
    return wait_for(condition, timeout, lambda: f"{what}: {_state(browser)}", every=0.03)


def _state(browser) -> str:
    shown = {
        testid: found[0].text if (found := _by_testid(browser, testid)) else None
        for testid in ("status", "error", "account-error")
    }
    return " ".join(f"{testid}={text!r}" for testid, text in shown.items())


def _create_from_lobby(
    browser, base, game: str, opponent: str = "greedy", clock: str | None = None
) -> str:
    """Create a game in the lobby (seat 0 me, seat 1 `opponent`, `clock` the value of the
    turn-clock choice) and wait for its table; the game's id."""
    from selenium.webdriver.support.ui import Select

    browser.get(base + "/")
    _wait(
        browser, lambda: browser.execute_script("return document.body.dataset.ready"), what="lobby"
    )
    Select(_by_testid(browser, "game")[0]).select_by_value(game)
    Select(_by_testid(browser, "seat-1")[0]).select_by_value(level_choice(base, game, opponent))
    if clock is not None:
        Select(_by_testid(browser, "clock")[0]).select_by_value(clock)
    name = _by_testid(browser, "name")[0]
    name.clear()
    name.send_keys("ann")
    _by_testid(browser, "create")[0].click()
    _wait(browser, lambda: "/play/" in browser.current_url, what="the table page")
    return browser.current_url.rsplit("/", 1)[1]


def _wait_for_my_move(browser) -> None:
    _wait(
        browser,
        lambda: browser.execute_script(
            "return document.querySelector('[data-testid=turn]').dataset.mine === '1'"
        ),
        what="my turn",
    )


def _finished(base: str, game_id: str) -> dict:
    return requests.get(f"{base}/v1/games/{game_id}", timeout=10).json()


def test_lobby_and_table_pages_are_served_with_their_modules(live_stack):
    base = live_stack.base_url
    for path in ("/", "/play/anything"):
        answer = requests.get(base + path, timeout=10)
        assert answer.status_code == 200
        assert "script-src 'self'" in answer.headers["Content-Security-Policy"]
    assert (
        requests.get(base + "/web/play.js", timeout=10)
        .headers["Content-Type"]
        .startswith("text/javascript")
    )
    assert requests.get(base + "/web/nothing.js", timeout=10).status_code == 404


def test_person_creates_a_card_game_in_the_lobby_plays_it_by_clicking_and_resumes_on_reload(
    live_stack, browser
):
    """The lobby's game against a level, played by clicks until a card is laid and the bot
    has answered (both in the log); a reload resumes the seat; the end (a resignation here)
    links the replay. Whole games played by clicks to their end: tests/api/test_table_browser."""
    base = live_stack.base_url
    game_id = _create_from_lobby(browser, base, "keltis-card")
    browser.execute_script("localStorage.setItem('keltis.pace', '0')")  # no pause between steps

    def laid_and_answered() -> bool:
        lines = browser.execute_script(
            "return [...document.querySelectorAll('[data-testid=log] li')]"
            ".map((li) => li.textContent)"
        )
        laid = any(" lays " in line for line in lines)
        return laid and any("Level 4 bot" in line for line in lines)

    click_until(browser, laid_and_answered, limit=80)
    assert _by_testid(browser, "error")[0].text == ""
    browser.refresh()  # the seat is resumed from local storage
    _wait(browser, lambda: "You play ann" in _by_testid(browser, "status")[0].text, what="seat")
    _resign_stored_seat(browser, base, game_id)
    _wait(browser, lambda: _by_testid(browser, "replay-link"), what="the replay link")
    link = _by_testid(browser, "replay-link")[0].get_attribute("href")
    assert link.endswith(f"/v1/games/{game_id}/replay.html")
    game = _finished(base, game_id)
    assert game["status"] == "finished"
    assert game["players"][1]["bot"] == level_choice(base, "keltis-card", "greedy")[4:]


def test_person_creates_a_dice_game_in_the_lobby_and_rerolls_by_clicking(live_stack, browser):
    base = live_stack.base_url
    game_id = _create_from_lobby(browser, base, "keltis-dice")
    browser.execute_script("localStorage.setItem('keltis.pace', '0')")

    def rerolled() -> bool:
        answer = requests.get(f"{base}/v1/games/{game_id}/events?after=0", timeout=10).json()
        return any(e["event"]["type"] == "dice_rerolled" and e["by"] == 0 for e in answer["events"])

    did = click_until(browser, rerolled, limit=80, reroll_first=True)
    assert "reroll" in did
    assert _by_testid(browser, "error")[0].text == ""
    _resign_stored_seat(browser, base, game_id)


def test_lobby_creates_a_game_with_a_turn_clock_shown_at_the_table(live_stack, browser):
    base = live_stack.base_url
    game_id = _create_from_lobby(browser, base, "keltis-card", clock="120")
    game = requests.get(f"{base}/v1/games/{game_id}", timeout=10).json()
    assert game["clock"]["move_seconds"] == 120
    assert game["clock"]["fallback"] == "greedy"  # the strongest built-in bot moves on time-out
    assert game["deadline"] is not None
    _wait(
        browser,
        lambda: "must move within" in _by_testid(browser, "clock")[0].text,
        what="the table's clock",
    )
    assert "(move time 120 s)" in _by_testid(browser, "clock")[0].text
    _resign_stored_seat(browser, base, game_id)


def test_lobby_account_plays_a_rated_game_and_finds_it_from_another_browser(live_stack, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    base = live_stack.base_url
    name = "web-" + uuid.uuid4().hex[:8]
    key = _sign_up_in_fresh_lobby(browser, base, name)
    assert requests.get(f"{base}/v1/me", headers=_bearer(key), timeout=10).json()["name"] == name
    Select(_by_testid(browser, "seat-1")[0]).select_by_value(
        level_choice(base, "keltis-card", "greedy")
    )
    _by_testid(browser, "rated")[0].click()
    _by_testid(browser, "create")[0].click()
    _wait(browser, lambda: "/play/" in browser.current_url, what="the table page")
    game_id = browser.current_url.rsplit("/", 1)[1]
    game = requests.get(f"{base}/v1/games/{game_id}", timeout=10).json()
    assert game["rated"] is True and game["players"][0]["account"] == name
    # The account's key plays its seat: a card and its target make a move.
    _wait_for_my_move(browser)
    before = requests.get(f"{base}/v1/games/{game_id}", timeout=10).json()["version"]
    assert click_settled(browser) == "pick" and click_settled(browser) == "move"
    _wait(
        browser,
        lambda: requests.get(f"{base}/v1/games/{game_id}", timeout=10).json()["version"] > before,
        what="the account's move",
    )
    # Another browser (nothing stored) signs in with the key and finds the game.
    _fresh_lobby(browser, base)
    _by_testid(browser, "account-key")[0].send_keys(key)
    _by_testid(browser, "sign-in")[0].click()
    _wait(browser, lambda: _by_testid(browser, "account-shown")[0].text == name, what="sign-in")
    mine = f'[data-testid="my-games"] li[data-game="{game_id}"]'
    _wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, mine), what="my games")
    line = browser.find_element(By.CSS_SELECTOR, mine).text  # in words
    assert line.startswith("Card game · you vs Level 4 bot") and game_id not in line
    _resign(base, game_id, _bearer(key))
    browser.execute_script("localStorage.clear()")


def test_lobby_replaces_the_account_key_and_the_old_key_stops_working(live_stack, browser):
    base = live_stack.base_url
    name = "key-" + uuid.uuid4().hex[:8]
    old = _sign_up_in_fresh_lobby(browser, base, name)
    seat = {"seat": 0, "token": old, "name": name}  # a seat this browser plays with the key
    browser.execute_script(
        "localStorage.setItem('keltis.seat.g-key-test', arguments[0])", json.dumps(seat)
    )
    new = _replace_key(browser, old)
    assert requests.get(f"{base}/v1/me", headers=_bearer(old), timeout=10).status_code == 401
    assert requests.get(f"{base}/v1/me", headers=_bearer(new), timeout=10).json()["name"] == name
    stored = browser.execute_script("return localStorage.getItem('keltis.seat.g-key-test')")
    assert json.loads(stored)["token"] == new
    # A browser still holding the old key is signed out and told why.
    _fresh_lobby(browser, base)
    browser.execute_script(
        "localStorage.setItem('keltis.account', arguments[0])",
        json.dumps({"name": name, "key": old}),
    )
    browser.get(base + "/")
    _wait(
        browser,
        lambda: "no longer works" in _by_testid(browser, "account-error")[0].text,
        what="the stale key's message",
    )
    assert _by_testid(browser, "signed-out")[0].is_displayed()
    assert browser.execute_script("return localStorage.getItem('keltis.account')") is None
    browser.execute_script("localStorage.clear()")


# The page's fetch, with each request for the account's games held until the test lets it go.
_HOLD_MY_GAMES = """
const original = window.fetch;
window.heldRequests = [];
window.fetch = (url, init) => String(url).startsWith('/v1/me/games')
  ? new Promise((resolve) => window.heldRequests.push(() => resolve(original(url, init))))
  : original(url, init);
"""


def test_a_request_answered_401_for_a_key_this_browser_replaced_keeps_it_signed_in(
    live_stack, browser
):
    """The lobby's list of the account's games, asked with the key just before "Replace my
    key" and answered after it (401), says nothing about the new key: the browser stays
    signed in with the new one."""
    base = live_stack.base_url
    name = "race-" + uuid.uuid4().hex[:8]
    _fresh_lobby(browser, base)
    browser.execute_script(_HOLD_MY_GAMES)
    _by_testid(browser, "account-name")[0].send_keys(name)
    _by_testid(browser, "sign-up")[0].click()
    _wait(browser, lambda: browser.execute_script("return window.heldRequests.length"), what="ask")
    old = _by_testid(browser, "new-key")[0].text.rsplit(" ", 1)[1]
    new = _replace_key(browser, old)
    marker = "[data-testid=my-games] hr"
    browser.execute_script(
        "document.querySelector('[data-testid=my-games]').append(document.createElement('hr'));"
        "window.heldRequests.forEach((release) => release());"
    )
    _wait(  # the list drawn again once the held answer (401 for the old key) came back
        browser,
        lambda: not browser.execute_script("return document.querySelector(arguments[0])", marker),
        what="the games list after the held answer",
    )
    held = json.loads(browser.execute_script("return localStorage.getItem('keltis.account')"))
    assert held == {"name": name, "key": new}
    assert _by_testid(browser, "signed-in")[0].is_displayed()
    assert not _by_testid(browser, "account-error")[0].is_displayed()
    browser.execute_script("localStorage.clear()")


def _replace_key(browser, old: str) -> str:
    """Click "Replace my key"; the new key the lobby shows once."""
    _by_testid(browser, "replace-key")[0].click()
    return _wait(
        browser,
        lambda: (
            (shown := _by_testid(browser, "new-key")[0].text.rsplit(" ", 1)[-1]) != old and shown
        ),
        what="the new key",
    )


def _sign_up_in_fresh_lobby(browser, base: str, name: str) -> str:
    """Sign up as `name` in a fresh lobby; the account key it shows once."""
    _fresh_lobby(browser, base)
    _by_testid(browser, "account-name")[0].send_keys(name)
    _by_testid(browser, "sign-up")[0].click()
    _wait(browser, lambda: _by_testid(browser, "account-shown")[0].text == name, what="sign-up")
    return _by_testid(browser, "new-key")[0].text.rsplit(" ", 1)[1]


def _fresh_lobby(browser, base: str) -> None:
    """The lobby as a browser that stored nothing sees it (another browser)."""
    browser.get(base + "/")
    browser.execute_script("localStorage.clear()")
    browser.get(base + "/")
    _wait(browser, lambda: browser.execute_script("return document.body.dataset.ready"))


def _bearer(token: str) -> dict:
    return {"Authorization": "Bearer " + token}


def test_table_is_keyboard_operable_and_fits_a_phone(live_stack, browser):
    from selenium.webdriver.common.keys import Keys

    base = live_stack.base_url
    game_id = _create_from_lobby(browser, base, "keltis-card")
    _wait_for_my_move(browser)
    before = requests.get(f"{base}/v1/games/{game_id}", timeout=10).json()["version"]
    focused = browser.switch_to.active_element
    assert focused.get_attribute("data-testid") == "hand-card"  # the first card has focus
    focused.send_keys(Keys.ENTER)  # picks it; the focus moves on to its first target
    target = _wait(
        browser,
        lambda: (active := browser.switch_to.active_element).get_attribute("data-move") and active,
        what="the focus on the picked card's first target (its row or its pile)",
    )
    target.send_keys(Keys.SPACE)
    _wait(
        browser,
        lambda: requests.get(f"{base}/v1/games/{game_id}", timeout=10).json()["version"] > before,
        what="the move sent by the keyboard",
    )
    try:
        browser.set_window_size(390, 844)
        width = browser.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], width  # nothing wider than the phone's screen
    finally:
        browser.set_window_size(1280, 1000)
    _resign_stored_seat(browser, base, game_id)


def test_server_error_is_shown_in_words(live_stack, browser):
    base = live_stack.base_url
    _create_from_lobby(browser, base, "keltis-card")
    _wait_for_my_move(browser)
    assert click_settled(browser) == "pick"
    # Another client moves first with the same seat: the page's click is now stale (409).
    game_id = browser.current_url.rsplit("/", 1)[1]
    seat = json.loads(
        browser.execute_script(
            "return localStorage.getItem(arguments[0])", "keltis.seat." + game_id
        )
    )
    headers = {"Authorization": "Bearer " + seat["token"]}
    moves = requests.get(f"{base}/v1/games/{game_id}/moves", headers=headers, timeout=10).json()
    stale = browser.execute_script(
        "return document.querySelector('[data-testid=table] button.target').dataset.move"
    )
    move = {**moves["moves"][0], "expected_version": moves["version"]}
    with Deaf(browser, game_id):  # the page has not heard of the other client's move yet
        assert requests.post(
            f"{base}/v1/games/{game_id}/moves", headers=headers, json=move, timeout=10
        ).ok
        browser.execute_script(
            "document.querySelector('[data-testid=table] button.target').click()"
        )
    text = _wait(browser, lambda: _by_testid(browser, "error")[0].text, what="an error")
    assert "game has moved on" in text or "not allowed" in text, (text, stale)
    _resign(base, game_id, headers)


def _resign(base: str, game_id: str, headers: dict) -> None:
    """End the game, so that the page's stream ends too."""
    requests.post(f"{base}/v1/games/{game_id}/resign", headers=headers, timeout=10)


def _resign_stored_seat(browser, base: str, game_id: str) -> None:
    """Resign with the seat's token the page stored in local storage."""
    seat = json.loads(
        browser.execute_script(
            "return localStorage.getItem(arguments[0])", "keltis.seat." + game_id
        )
    )
    _resign(base, game_id, _bearer(seat["token"]))


def _public_cards(view: dict) -> Counter:
    cards = Counter()
    for pile in view["piles"].values():
        cards.update(pile)
    for seat in view["seats"]:
        cards.update(seat["point_row"])
        for row in seat["rows"].values():
            cards.update(row["cards"])
    return cards


def _walk(value):
    if isinstance(value, dict):
        yield value
        for child in value.values():
            yield from _walk(child)
    elif isinstance(value, list):
        for child in value:
            yield from _walk(child)


def test_spectator_page_holds_no_hidden_card(live_stack, browser):
    base = live_stack.base_url
    made = requests.post(
        f"{base}/v1/games",
        json={
            "game": "keltis-card",
            "players": [{"name": "ann"}, {"name": "rob", "bot": "greedy"}],
        },
        timeout=10,
    ).json()
    game_id, headers = made["id"], {"Authorization": "Bearer " + made["seats"][0]["token"]}

    def ann_to_move():
        """Ann's moves, once it is her turn (greedy has answered)."""
        deadline = time.monotonic() + 30
        while True:
            moves = requests.get(f"{base}/v1/games/{game_id}/moves", headers=headers, timeout=10)
            if moves.ok and moves.json()["moves"]:
                return moves.json()
            assert time.monotonic() < deadline, moves.text
            time.sleep(0.05)

    def ann_moves(count):
        for _ in range(count):
            moves = ann_to_move()
            body = {**moves["moves"][-1], "expected_version": moves["version"]}
            assert requests.post(
                f"{base}/v1/games/{game_id}/moves", headers=headers, json=body, timeout=10
            ).ok

    ann_moves(6)
    script = browser.execute_cdp_cmd(
        "Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_ANSWERS}
    )
    try:
        browser.get(f"{base}/play/{game_id}")
        _wait(browser, lambda: "Watching" in _by_testid(browser, "status")[0].text, what="page")
        ann_moves(6)  # the spectator's stream carries these, and greedy's answers
        # Greedy has answered: nothing moves until ann does, so the page and the public
        # view read below are of one version (a bot move between them showed a card that
        # the view read before it did not).
        ann_to_move()
        latest = requests.get(f"{base}/v1/games/{game_id}", timeout=10).json()
        _wait(
            browser,
            lambda: (
                int(_by_testid(browser, "status")[0].get_attribute("data-version") or 0)
                >= latest["version"]
            ),
            what="the latest version",
        )
        public = latest["view"]
        hands = [requests.get(f"{base}/v1/games/{game_id}", headers=headers, timeout=10).json()]
        assert public["seats"][0]["hand_size"] > 0 and "hand" in hands[0]["view"]
        shown = Counter(
            browser.execute_script(
                "return [...document.querySelectorAll('[data-card]')].map(e => e.dataset.card)"
            )
        )
        assert not _by_testid(browser, "hand") and not _by_testid(browser, "moves")[0].text
        assert shown - _public_cards(public) == Counter(), "a card the public cannot see"
        answers = browser.execute_script("return window.__answers")
        assert any("/stream" in a["url"] for a in answers)
        for answer in answers:
            for line in answer["body"].splitlines():
                if not line.strip():
                    continue
                for node in _walk(json.loads(line)):
                    assert not {"hand", "hands", "deck", "removed", "hidden", "seed"} & set(node)
                    if node.get("type") == "card_drawn" and node.get("source") == "deck":
                        assert "card" not in node
    finally:
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", script)
        _resign(base, game_id, headers)


def test_docs_page_is_swagger_ui_whose_try_it_out_calls_this_server(live_stack, browser):
    from selenium.webdriver.common.by import By

    browser.get(live_stack.base_url + "/docs")
    _wait(browser, lambda: browser.execute_script("return document.body.dataset.ready"), what="ui")
    summary = _wait(
        browser,
        lambda: [
            e
            for e in browser.find_elements(By.CSS_SELECTOR, ".opblock-summary-path")
            if e.get_attribute("data-path") == "/v1/bots"
        ],
        what="the /v1/bots operation",
    )
    summary[0].click()
    _wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, ".try-out__btn"), what="try")
    browser.find_element(By.CSS_SELECTOR, ".try-out__btn").click()
    _wait(browser, lambda: browser.find_elements(By.CSS_SELECTOR, ".execute"), what="execute")
    browser.find_element(By.CSS_SELECTOR, ".execute").click()
    body = _wait(
        browser,
        lambda: [
            e.text
            for e in browser.find_elements(By.CSS_SELECTOR, ".live-responses-table .microlight")
            if "greedy" in e.text
        ],
        what="the live answer",
    )
    assert "keltis-card" in body[0]


def test_lobby_lists_a_running_tournament_with_its_standings(live_stack, browser):
    """GET /v1/tournaments names the running tournaments; the lobby shows their standings."""
    base = live_stack.base_url
    name = f"idle{int(time.time() * 1000) % 10**9}"
    requests.post(f"{base}/v1/accounts", json={"name": name, "bot": True}, timeout=10)
    body = {
        "game": "keltis-card",
        "bots": ["greedy", {"account": name}],
        "games": 2,
        "clock": {"move_seconds": 120},
    }  # fmt: skip  (the idle account keeps it running)
    created = requests.post(f"{base}/v1/tournaments", json=body, timeout=10)
    assert created.status_code == 202, created.text
    tid = created.json()["id"]
    try:
        browser.get(base + "/")
        box = _wait(browser, lambda: _by_testid(browser, "tournaments"), what="tournaments")[0]
        _wait(browser, lambda: tid in box.text, what="the running tournament")
        assert "greedy" in box.text and f"@{name}" in box.text
    finally:
        headers = {"Authorization": f"Bearer {created.json()['token']}"}
        requests.post(f"{base}/v1/tournaments/{tid}/cancel", headers=headers, timeout=10)


def level_choice(base: str, game: str, recipe: str) -> str:
    """The lobby's seat choice of a built-in bot: the level of `game` it is the recipe of
    (a person chooses levels), or the bot itself when it is no level."""
    games = requests.get(f"{base}/v1/bots", timeout=10).json()["games"]
    levels = next(g["levels"] for g in games if g["game"] == game)
    found = [level["name"] for level in levels if level["recipe"] == recipe]
    return "bot:" + (found[0] if found else recipe)
