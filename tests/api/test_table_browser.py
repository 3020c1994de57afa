"""The table, in Debian's headless Chromium over the real stack (gunicorn, a
worker, Redis): whole games played from the hand against the strongest bot, a move sent
while the network is down, the layout at 1280x800 and at 390 px."""

from __future__ import annotations

import time

import pytest
import requests

from tests.support.chromium import chromium_page
from tests.support.table_clicks import (
    STATE,
    Deaf,
    by_testid,
    click_once,
    click_settled,
    create_game,
    hint_text,
    open_seat,
    page_state,
    play_whole_game,
    wait_page,
)

pytestmark = pytest.mark.redis

STRONGEST = "mcts:i20"  # the strongest built-in bot, on a small fixed budget to stay quick


@pytest.fixture(scope="module")
def browser():
    with chromium_page(width=1280, height=800) as driver:
        yield driver


def _events(base: str, game_id: str) -> list[dict]:
    answer = requests.get(f"{base}/v1/games/{game_id}/events?after=0", timeout=10).json()
    return [entry["event"] for entry in answer["events"]]


def _no_sideways_scroll(browser) -> None:
    """At 390 px wide the page is no wider than the screen."""
    try:
        browser.set_window_size(390, 844)
        wait_page(
            browser,
            lambda: browser.execute_script("return innerWidth") <= 400,
            what="the phone's width",
        )
        width = browser.execute_script("return [document.documentElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], width
    finally:
        browser.set_window_size(1280, 800)


def _own_rows_bottom(browser) -> list[float]:
    return browser.execute_script(
        "const rows = document.querySelector('.seat.mine .row-grid').getBoundingClientRect();"
        "return [rows.bottom, innerHeight];"
    )


def _note_page_scroll(scrolls: list):
    """An each-step check of play_whole_game: the steps of the play at which the page
    scrolled."""

    def check(browser, did: str) -> None:
        state, scroll, status, below = browser.execute_script(
            "const s = document.querySelector('[data-testid=status]');"
            "const below = [...document.querySelectorAll('body *')]"
            "  .filter((e) => e.getBoundingClientRect().bottom > innerHeight)"
            "  .map((e) => e.tagName + '.' + e.className + ' ' + e.textContent.slice(0, 40));"
            "return [s.dataset.state, document.documentElement.scrollHeight - innerHeight,"
            "        s.textContent, below.slice(0, 8)];"
        )
        if did != "over" and state == "active" and scroll > 0:  # the end may take more room
            scrolls.append((did, scroll, status, below))

    return check


def _path_heights(browser) -> frozenset:
    """The distinct heights (px) of the dice board's paths as drawn now."""
    return frozenset(
        browser.execute_script(
            "return [...document.querySelectorAll('[data-testid^=path-]')]"
            ".map((p) => Math.round(p.getBoundingClientRect().height));"
        )
    )


def _places(browser) -> dict:
    """Where each part of the card table is (its box's top and height, px)."""
    return browser.execute_script(
        "const found = {};"
        "for (const [name, selector] of Object.entries({seats: '.seat', centre: '.centre',"
        " hand: '.hand', turn: '.turn'})) {"
        "  found[name] = [...document.querySelectorAll(selector)]"
        "    .map((e) => { const r = e.getBoundingClientRect(); return [r.top, r.height]; });"
        "}"
        "return found;"
    )


@pytest.mark.slow
def test_person_plays_a_whole_card_game_from_the_hand_against_mcts(live_stack, browser):
    """Items 3 and 4: only hand, target, deck and pile clicks (P1-P4, D1, E3)."""
    base = live_stack.base_url
    made = create_game(base, "keltis-card", STRONGEST)
    open_seat(browser, base, made, pace_ms=0)
    # The play step at 1280x800: the own rows are above the fold (item 5).
    wait_page(
        browser,
        lambda: browser.execute_script(
            "return document.querySelector('[data-testid=hand-card][data-playable=\"1\"]')"
        ),
        what="hand",
    )
    browser.execute_script("scrollTo(0, 0)")
    bottom, height = _own_rows_bottom(browser)
    assert bottom <= height, (bottom, height)
    _no_sideways_scroll(browser)
    scrolls: list[tuple] = []
    sent = play_whole_game(browser, limit=600, each_step=_note_page_scroll(scrolls))
    assert scrolls == []  # the whole game, final round included, without a page scroll
    game = requests.get(f"{base}/v1/games/{made['id']}", timeout=10).json()
    assert game["status"] == "finished" and sent > 20
    mine = [e for e in _events(base, made["id"]) if e.get("seat") == 0]
    assert any(e["type"] == "card_laid" for e in mine)
    assert any(e["type"] == "card_drawn" and e["source"] == "deck" for e in mine)
    assert by_testid(browser, "error")[0].text == ""
    # The end: no final-round banner, a breakdown per player adding up to the score (K1-K3).
    assert not by_testid(browser, "final-round")
    for seat, score in enumerate(game["result"]["scores"]):
        total = by_testid(browser, f"breakdown-{seat}-total")[0]
        assert total.get_attribute("textContent") == str(score)
        lines = browser.execute_script(
            "return [...document.querySelectorAll("
            "'[data-testid=breakdown-' + arguments[0] + '] td.pts')]"
            ".slice(0, -1).map((td) => Number(td.textContent))",
            seat,
        )
        assert sum(lines) == score, (lines, score)
    result = by_testid(browser, "result")[0]  # the end as ann takes it, first
    won = 0 in game["result"]["winners"]
    points = game["result"]["scores"][0]
    assert result.text.splitlines()[0].startswith("You won" if won else "You lost")
    unit = "point" if abs(points) == 1 else "points"  # the page says "-1 point"
    assert result.text.splitlines()[0].endswith(f"({points} {unit})")


def test_card_that_cannot_go_to_its_row_says_why(live_stack, browser):
    """A blocked card is marked, with the reason in words and a "why?" link to its rule
    (P3)."""
    base = live_stack.base_url
    made = create_game(base, "keltis-card", "greedy")
    open_seat(browser, base, made, pace_ms=0)
    # Play until some hand card is blocked by a row's direction.
    for _ in range(300):
        blocked = browser.execute_script(
            "return document.querySelector('[data-testid=hand-card].blocked[data-playable=\"1\"]')"
        )
        if blocked is not None and browser.execute_script(
            "return document.querySelector('[data-testid=turn]').dataset.mine === '1'"
        ):
            break
        if click_once(browser) == "over":
            pytest.skip("the deal gave no blocked card")  # not with this seeded deal
    else:
        raise AssertionError("no blocked card")
    label, card = browser.execute_script(
        "const b = document.querySelector('[data-testid=hand-card].blocked[data-playable=\"1\"]');"
        "const label = b.textContent;"  # the reason, spoken (sr-only)
        "if (b.getAttribute('aria-pressed') !== 'true') b.click();"
        "return [label, b.dataset.card];"
    )
    assert "rises" in label or "falls" in label or "closed" in label
    assert "(P3)" not in label  # the rule's id is a link, not words
    colour = card.split("-")[0]
    # read in one script: the table may redraw between two commands (a stale element)
    text, rule, href = wait_page(
        browser,
        lambda: browser.execute_script(
            "const r = document.querySelector('[data-testid=reason-' + arguments[0] + ']');"
            "const a = r && r.querySelector('a.why');"
            "return a ? [r.textContent, a.dataset.rule, a.href] : null;",
            colour,
        ),
        what="reason",
    )
    assert "(P3)" not in text and text.endswith("why?")
    assert rule == "P3" and href.endswith("/rules#P3")
    assert not by_testid(browser, f"target-row-{colour}")
    hint = by_testid(browser, "hint")[0].text
    assert "cannot go to its row" in hint and "discard" in hint


@pytest.mark.parametrize("side", ["basic", "advanced"])
def test_person_plays_a_whole_dice_game_on_each_side(live_stack, browser, side):
    """Items 6: choices say where a marker lands, fields named by their values (W1, T3-T6)."""
    base = live_stack.base_url
    made = create_game(base, "keltis-dice", STRONGEST, {"board": side})
    open_seat(browser, base, made, pace_ms=0)
    wait_page(browser, lambda: by_testid(browser, "pick-die-0"), what="dice")
    _no_sideways_scroll(browser)
    legend = by_testid(browser, "legend")[0].text
    assert "goal zone" in legend and "point" not in legend
    assert ("forbidden" in legend) == (side == "advanced")
    seen_words = []
    scrolls: list[tuple] = []
    note_scroll = _note_page_scroll(scrolls)
    path_heights: set[frozenset] = set()
    for _ in range(400):
        labels = browser.execute_script(
            "return [...document.querySelectorAll('[data-testid=moves] [data-testid=move]')]"
            ".map((b) => b.title)"
        )
        seen_words += labels
        did = click_once(browser, reroll_first=not any("reroll" in w.lower() for w in seen_words))
        note_scroll(browser, did)
        path_heights.add(_path_heights(browser))
        if did == "over":
            break
        if did == "reroll":
            seen_words.append("reroll")
    game = requests.get(f"{base}/v1/games/{made['id']}", timeout=10).json()
    assert game["status"] == "finished"
    assert scrolls == []  # the whole game without a page scroll at 1280x800
    # Every path as tall as every other at every step: markers landing on bonus fields
    # never grow the board (they made the page scroll late in some games).
    assert len(path_heights) == 1 and len(next(iter(path_heights))) == 1, path_heights
    landing = [w for w in seen_words if w.startswith("+")]
    assert landing and all("the field worth" in w for w in landing), landing
    assert not any("move your" in w.lower() for w in seen_words if "Clover" in w)
    log = by_testid(browser, "log")[0].text
    assert "the field worth" in log and "to field " not in log


# Where the dice are on the page: those of the table and of the choices, each die's box
# (left, bottom), whether it is pressed, and whether the page scrolls.
DICE_PLACES = """
const box = (e) => {
  const r = e.getBoundingClientRect();
  return [Math.round(r.left), Math.round(r.bottom)];
};
const reroll = document.querySelector('[data-testid=reroll]');
const picks = [...document.querySelectorAll('[data-testid^=pick-die-]')];
return {
  table: [...document.querySelectorAll('[data-testid=table] .die')].map((d) => d.dataset.testid),
  choices: document.querySelectorAll('[data-testid=moves] .die').length,
  places: picks.map(box),
  pressed: picks.map((d) => d.getAttribute('aria-pressed')),
  reroll: reroll ? [reroll.textContent, reroll.disabled, box(reroll)] : null,
  scroll: document.documentElement.scrollHeight - innerHeight,
  height: innerHeight,
};
"""


def _dice(browser) -> dict:
    return browser.execute_script(DICE_PLACES)


def test_T1_dice_to_roll_again_are_picked_in_place_on_the_table(live_stack, browser):
    """The dice are shown once: the table's own dice are the toggles (a click presses one in
    place), the choices hold one button that rolls the picked dice; at 1280x800 and on a
    390x844 phone the page does not scroll, and on the phone the button and the dice are in
    view together."""
    base = live_stack.base_url
    made = create_game(base, "keltis-dice", "greedy")
    open_seat(browser, base, made, pace_ms=0)
    wait_page(browser, lambda: by_testid(browser, "pick-die-0"), what="dice to pick")
    shown = _dice(browser)
    assert shown["table"] == [f"pick-die-{i}" for i in range(5)] and shown["choices"] == 0
    assert shown["pressed"] == ["false"] * 5
    assert shown["reroll"][1] is True  # nothing picked: nothing to roll
    assert shown["scroll"] <= 0, shown
    for index in (1, 3):
        by_testid(browser, f"pick-die-{index}")[0].click()
    picked = _dice(browser)
    assert picked["pressed"] == ["false", "true", "false", "true", "false"]
    assert [left for left, _ in picked["places"]] == [left for left, _ in shown["places"]]
    assert picked["reroll"][:2] == ["Reroll 2 dice", False]
    by_testid(browser, "pick-die-3")[0].click()  # a second click takes the die back
    assert _dice(browser)["reroll"][:2] == ["Reroll 1 die", False]
    try:
        browser.set_window_size(390, 844)
        wait_page(browser, lambda: browser.execute_script("return innerWidth") <= 400, what="phone")
        phone = _dice(browser)
        assert phone["pressed"] == ["false", "true", "false", "false", "false"]
        lowest = max(bottom for _, bottom in [*phone["places"], phone["reroll"][2]])
        assert lowest <= phone["height"], phone
        assert browser.execute_script("return document.documentElement.scrollWidth <= innerWidth")
    finally:
        browser.set_window_size(1280, 800)
    by_testid(browser, "reroll")[0].click()  # one click rolls the picked dice

    def rerolled() -> list[dict]:
        return [e for e in _events(base, made["id"]) if e["type"] == "dice_rerolled"]

    wait_page(browser, rerolled, what="the reroll")
    assert [(e["seat"], e["indexes"]) for e in rerolled()] == [(0, [1])]


# The picked card's discard pile, found afresh (the table may redraw, keeping the pick).
PILE_TARGET = "document.querySelector('[data-testid^=pile-button-][data-move]')"


def _picked_card(base: str, browser) -> dict:
    """A card game against greedy with a hand card picked and its pile a target; the game."""
    made = create_game(base, "keltis-card", "greedy")
    open_seat(browser, base, made, pace_ms=0)
    assert click_settled(browser) == "pick"
    wait_page(browser, lambda: browser.execute_script("return " + PILE_TARGET), what="a target")
    return made


def test_table_is_live_again_within_5_s_after_the_network_returns(live_stack, browser):
    """Item 1: a move sent while offline fails; the table redraws itself on reconnect."""
    base = live_stack.base_url
    made = _picked_card(base, browser)
    browser.execute_cdp_cmd("Network.enable", {})
    offline = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", offline)
    try:
        browser.execute_script(PILE_TARGET + ".click()")
        error = wait_page(browser, lambda: by_testid(browser, "error")[0].text, what="an error")
        assert "not sent" in error or "cannot be reached" in error, error
    finally:
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", {**offline, "offline": False})
    back = time.monotonic()
    wait_page(
        browser,
        lambda: browser.execute_script(
            "return document.querySelector('[data-testid=turn]').dataset.mine === '1'"
            " && !!document.querySelector('[data-testid=hand-card][data-playable=\"1\"]')"
            " && document.querySelector('[data-testid=error]').hidden"
        ),
        timeout=5.0,
        what="a live table within 5 s",
    )
    assert time.monotonic() - back <= 5.0
    # Live: a click plays a move.
    before = requests.get(f"{base}/v1/games/{made['id']}", timeout=10).json()["version"]
    did = click_settled(browser)  # the card picked before may still be picked
    assert (click_settled(browser) if did == "pick" else did) == "move"
    wait_page(
        browser,
        lambda: (
            requests.get(f"{base}/v1/games/{made['id']}", timeout=10).json()["version"] > before
        ),
        what="the move after reconnecting",
    )
    browser.execute_cdp_cmd("Network.disable", {})


def test_stale_move_shows_one_line_that_goes_when_the_game_moves_on(live_stack, browser):
    """Item 1: a 409 gives one clear line (no doubled words), gone at the next redraw."""
    base = live_stack.base_url
    made = _picked_card(base, browser)
    headers = {"Authorization": "Bearer " + made["seats"][0]["token"]}
    legal = requests.get(f"{base}/v1/games/{made['id']}/moves", headers=headers, timeout=10).json()
    other = {**legal["moves"][0], "expected_version": legal["version"]}
    url = f"{base}/v1/games/{made['id']}/moves"
    with Deaf(browser, made["id"]):  # the page has not heard of the second window's move
        assert requests.post(url, headers=headers, json=other, timeout=10).ok
        browser.execute_script(PILE_TARGET + ".click()")
    error = wait_page(browser, lambda: by_testid(browser, "error")[0].text, what="the 409")
    assert "moved on" in error and error.lower().count("moved on") == 1, error
    # The table is live: the draw step is offered, and after it the line is gone.
    assert click_settled(browser) == "move"
    wait_page(
        browser,
        lambda: browser.execute_script(
            "return document.querySelector('[data-testid=error]').hidden"
        ),
        what="the line gone after the table moved on",
    )


def test_opponent_moves_are_shown_one_by_one_on_the_board(live_stack, browser):
    """A bot's steps come a pause apart, each with a line and one highlight (that step's
    spots alone); the viewer's choices stay open, and a click on the hand meanwhile ends
    the showing and is taken (a pick, not a lost click)."""
    base = live_stack.base_url
    made = create_game(base, "keltis-card", "greedy")
    open_seat(browser, base, made, pace_ms=2500)
    headers = {"Authorization": "Bearer " + made["seats"][0]["token"]}
    url = f"{base}/v1/games/{made['id']}/moves"
    for _ in range(2):  # ann plays and draws (as from another window); then greedy moves
        legal = requests.get(url, headers=headers, timeout=10).json()
        move = next(m for m in legal["moves"] if m["action"] in ("discard", "draw"))
        body = {**move, "expected_version": legal["version"]}
        assert requests.post(url, headers=headers, json=body, timeout=10).ok
    shown = wait_page(
        browser,
        lambda: browser.execute_script(
            "const news = document.querySelector('[data-testid=news]');"
            "if (news.textContent.split(' · ').filter((l) => l.startsWith('bot ')).length < 2"
            "    || document.querySelector('[data-testid=skip]').hidden"
            "    || document.querySelector('[data-testid=turn]').dataset.mine !== '1') return null;"
            "return [news.textContent, [...document.querySelectorAll('.touched')]"
            "        .map((e) => e.dataset.spot)];"
        ),
        what="the second step's line with Skip, the viewer's choices open",
    )
    spots = set(shown[1])
    played = {s for s in spots if s.startswith(("row-1-", "stones-1"))}
    drawn = {s for s in spots if s in ("deck", "hand-1")}
    assert spots and not (played and drawn), shown  # one step's spots, never a play and a draw
    card = browser.execute_script(
        "return document.querySelector('[data-testid=hand-card][data-playable=\"1\"]')"
    )
    card.click()
    wait_page(
        browser,
        lambda: browser.execute_script(
            "return document.querySelector('[data-testid=skip]').hidden"
            " && !!document.querySelector('[data-testid=hand-card][aria-pressed=true]')"
        ),
        timeout=5.0,
        what="the showing ended and the card picked by the one click",
    )
    news = by_testid(browser, "news")[0].text
    assert news.count("bot ") >= 2, news  # the bot's play and its draw, both told
    assert by_testid(browser, "turn")[0].text == "Your turn."


def test_wish_is_played_from_the_hand_and_draws_say_1_of_2(live_stack, browser):
    """Item 3: a card, its pair, the stone (P2); then "draw 1 of 2" and "2 of 2" (D1)."""
    base = live_stack.base_url
    for _ in range(10):  # a deal whose first hand holds a pair for a stone on the table
        made = create_game(base, "keltis-card", "greedy")
        headers = {"Authorization": "Bearer " + made["seats"][0]["token"]}
        url = f"{base}/v1/games/{made['id']}"
        legal = requests.get(url + "/moves", headers=headers, timeout=10).json()["moves"]
        wishes = [move for move in legal if move["action"] == "wish"]
        if wishes:
            break
        requests.post(url + "/resign", headers=headers, timeout=10)
    else:
        pytest.skip("no deal with a wish in ten")
    open_seat(browser, base, made, pace_ms=0)
    pick = "document.querySelector('[data-testid=hand-card][data-card=\"' + arguments[0] + '\"]')"
    first, second = wishes[0]["cards"]
    wait_page(browser, lambda: browser.execute_script(f"return !!{pick}", first), what="hand")
    browser.execute_script(f"{pick}.click()", first)
    if not browser.execute_script("return !!document.querySelector('button.stone.target')"):
        # several partners: the second pick names the pair
        browser.execute_script(
            "[...document.querySelectorAll('[data-testid=hand-card][data-card=\"' + arguments[0]"
            " + '\"]')].find((c) => c.getAttribute('aria-pressed') !== 'true').click()",
            second,
        )
    value = first.split("-")[1]
    stone = f"document.querySelector('[data-testid=stone-{value}]')"
    assert browser.execute_script(f"return {stone}.tagName === 'BUTTON' && !!{stone}.dataset.move")
    browser.execute_script(f"{stone}.click()")
    hint = wait_page(browser, lambda: "1 of 2" in (h := hint_text(browser)) and h, what="1 of 2")
    assert "deck" in hint
    browser.execute_script("document.querySelector('[data-testid=deck]').click()")
    wait_page(browser, lambda: "2 of 2" in hint_text(browser), what="2 of 2")
    events = [
        e["event"] for e in requests.get(url + "/events?after=0", timeout=10).json()["events"]
    ]
    assert any(e["type"] == "stone_wished" and e["seat"] == 0 for e in events)
    requests.post(url + "/resign", headers=headers, timeout=10)


def _through_picks(browser, count: int, after_pick) -> int:
    """Play the viewer's turns by clicks until `count` cards were picked, calling
    `after_pick(places)` after each pick with where the table's parts were before it; the
    picks made (fewer when the game ended first)."""
    picks = 0
    while picks < count:
        state = wait_page(
            browser,
            lambda: (s := browser.execute_script(STATE)) != "wait" and s,
            what="my turn",
        )
        if state == "over":
            break
        if state != "pick":
            click_once(browser)
            continue
        before = _places(browser)
        did = click_once(browser)
        if did == "stale":
            continue  # the table redrew under the click: measure it again, then pick
        assert did == "pick"
        wait_page(browser, lambda: by_testid(browser, "hint")[0].text != "", what="hint")
        after_pick(before)
        picks += 1
    return picks


def test_picking_a_card_moves_nothing_on_the_table(live_stack, browser):
    """The card table keeps its layout when a card is picked: "Lay here", a row's refusal
    and a pile's "Discard" lie over what is there (no layout shift under the pointer)."""
    base = live_stack.base_url
    open_seat(browser, base, create_game(base, "keltis-card", "greedy"), pace_ms=0)

    def unmoved(before: dict) -> None:
        assert _places(browser) == before, page_state(browser)

    assert _through_picks(browser, 6, unmoved) == 6


def test_a_phone_player_sees_the_prompt_the_hand_and_the_targets_together(live_stack, browser):
    """At 390x844, over 10 turns: after a card is picked, the turn line, the hand and every
    target of the step lie inside the screen at once."""
    base = live_stack.base_url
    made = create_game(base, "keltis-card", "greedy")
    browser.set_window_size(390, 844)
    try:
        open_seat(browser, base, made, pace_ms=0)
        wait_page(browser, lambda: browser.execute_script("return innerWidth") <= 400, what="phone")

        def in_view(_before: dict) -> None:
            outside = browser.execute_script(IN_VIEW)
            assert outside == [], (outside, page_state(browser))

        assert _through_picks(browser, 10, in_view) == 10
    finally:
        browser.set_window_size(1280, 800)


# The parts a phone player needs at a pick that lie outside the screen, or under another
# part (the sticky prompt or hand), as the page is shown (empty: all in view).
IN_VIEW = """
const parts = [document.querySelector('[data-testid=turn-box]'),
               document.querySelector('[data-testid=hand]'),
               ...document.querySelectorAll('[data-testid=table] button.target')];
const hidden = (e, r) => {
  if (r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) return true;
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !(top && (e === top || e.contains(top)));
};
return parts.filter((e) => e)
  .map((e) => [e, e.getBoundingClientRect()])
  .filter(([e, r]) => hidden(e, r))
  .map(([e, r]) => (e.dataset.testid || e.className) + ' ' + Math.round(r.top)
                   + '-' + Math.round(r.bottom));
"""


def test_the_end_of_a_rated_game_shows_the_accounts_rating_change(live_stack, browser):
    """An account's rated game against a bot: both sides move, the account resigns; its
    table says the end as the account takes it and its rating before and after, on the
    one scale (a newcomer's 1500 before its first rated game)."""
    base = live_stack.base_url
    name = f"rated{int(time.time() * 1000) % 10**9}"
    key = requests.post(f"{base}/v1/accounts", json={"name": name}, timeout=10).json()["key"]
    headers = {"Authorization": f"Bearer {key}"}
    body = {"game": "keltis-card", "rated": True, "players": [{"account": name}, {"bot": "greedy"}]}
    made = requests.post(f"{base}/v1/games", json=body, headers=headers, timeout=10).json()
    url = f"{base}/v1/games/{made['id']}"
    for _ in range(2):  # the account plays and draws; then greedy moves on the worker
        legal = requests.get(f"{url}/moves", headers=headers, timeout=10).json()
        move = {**legal["moves"][0], "expected_version": legal["version"]}
        assert requests.post(f"{url}/moves", json=move, headers=headers, timeout=10).ok
    wait_page(
        browser,
        lambda: requests.get(url, timeout=10).json()["to_move"] == 0,
        what="greedy's answer",
    )
    assert requests.post(f"{url}/resign", headers=headers, timeout=10).ok
    open_seat(browser, base, {"id": made["id"], "seats": [{"seat": 0, "token": key, "name": name}]})
    line = wait_page(
        browser,
        lambda: (t := by_testid(browser, "rating-change")) and "→" in t[0].text and t[0].text,
        timeout=40.0,
        what="the rating change",
    )
    after = requests.get(f"{base}/v1/accounts/{name}", timeout=10).json()["ratings"]["keltis-card"]
    change = after["rating"] - 1500
    assert line == f"Your rating: 1500 → {after['rating']}? ({'+' if change >= 0 else ''}{change})"
    assert change < 0  # a resignation is a loss
    assert by_testid(browser, "outcome")[0].text.startswith("You lost")


# Many long choices in the prompt (as on the advanced board late in a game) and what the
# page's main box holds below its lowest part (the empty grid rows' gaps made it scroll).
MANY_CHOICES = """
const moves = document.querySelector('[data-testid=moves]');
for (let i = 0; i < 40; i++) {
  const b = document.createElement('button');
  b.className = 'move';
  b.textContent = '+1: brown from the field worth -3 to the field worth -2 (clover) ' + i;
  moves.append(b);
}
const main = document.querySelector('main');
const lowest = Math.max(...[...main.children].map((e) => e.getBoundingClientRect().bottom));
const inner = main.getBoundingClientRect().bottom
  - parseFloat(getComputedStyle(main).paddingBottom);
return {scroll: document.documentElement.scrollHeight - innerHeight, below: inner - lowest};
"""


@pytest.mark.parametrize("side", ["basic", "advanced"])
def test_many_dice_choices_scroll_in_their_box_not_the_page(live_stack, browser, side):
    """The dice table never grows the page at 1280x800: a long list of choices scrolls in
    the prompt's own box, and no empty grid gap sits under the table."""
    base = live_stack.base_url
    made = create_game(base, "keltis-dice", STRONGEST, {"board": side})
    open_seat(browser, base, made, pace_ms=0)
    wait_page(browser, lambda: by_testid(browser, "pick-die-0"), what="dice")
    found = browser.execute_script(MANY_CHOICES)
    assert found["scroll"] <= 0 and found["below"] <= 1, found
