"""E4-E6, F5, F6 at the table, in Debian's headless Chromium over the real stack: while an
idle run nears 30 turns the table warns how many are left and what ends the run; once the
game is over it says in words which rule ended it, in the result box and in the moves' log.
Both seats are played over HTTP by the idle pickers; the browser watches."""

from __future__ import annotations

import pytest
import requests

from tests.support.chromium import chromium_page
from tests.support.idle_play import PICKERS
from tests.support.table_clicks import by_testid, wait_page

pytestmark = pytest.mark.redis

WARN_AT = 25  # idle turns in a row when the test looks at the warning (it shows from 20)
RULE = {"keltis-card": ("E4", "draw from the draw pile or lay a card"),
        "keltis-dice": ("F5", "move a marker")}  # fmt: skip


@pytest.fixture(scope="module")
def browser():
    with chromium_page(width=1280, height=800) as driver:
        yield driver


def _bearer(token: str) -> dict:
    return {"Authorization": "Bearer " + token}


def _two_people(base: str, game: str) -> tuple[str, dict[int, str]]:
    """A new game of two people (ann creates it, bea joins); its id and the seats' tokens."""
    created = requests.post(
        f"{base}/v1/games",
        json={"game": game, "players": [{"name": "ann"}, {"open": True}]},
        timeout=10,
    ).json()
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    joined = requests.post(
        f"{base}/v1/games/{created['id']}/seats/1/join", json={"name": "bea"}, timeout=10
    ).json()
    tokens[1] = joined["token"]
    return created["id"], tokens


def _idle_until(base: str, game_id: str, tokens: dict, stop) -> dict:
    """Play both seats by the idle picker until `stop(game)` holds; the game then."""
    for _ in range(500):
        shown = requests.get(f"{base}/v1/games/{game_id}", timeout=10).json()
        if stop(shown):
            return shown
        seat = shown["to_move"]
        moves = requests.get(
            f"{base}/v1/games/{game_id}/moves", headers=_bearer(tokens[seat]), timeout=10
        ).json()
        move = PICKERS[shown["game"]](shown["view"], moves["moves"])
        posted = requests.post(
            f"{base}/v1/games/{game_id}/moves",
            json={**move, "expected_version": moves["version"]},
            headers=_bearer(tokens[seat]),
            timeout=10,
        )
        assert posted.status_code == 200, posted.text
    raise AssertionError("the game did not get there")


def _watch(browser, base: str, game_id: str, version: int) -> None:
    browser.get(f"{base}/play/{game_id}")
    wait_page(
        browser,
        lambda: browser.execute_script(
            "const s = document.querySelector('[data-testid=status]');"
            "return s && Number(s.dataset.version) >= arguments[0];",
            version,
        ),
        what="the table at the version read",
    )


@pytest.mark.parametrize("game", ["keltis-card", "keltis-dice"])
def test_E4_F5_E6_the_table_warns_near_30_idle_turns_and_names_the_end(live_stack, browser, game):
    base = live_stack.base_url
    game_id, tokens = _two_people(base, game)
    rule, how = RULE[game]

    def near(shown: dict) -> bool:
        view = shown["view"]
        return view["idle_turns"] == WARN_AT and not view["progressed"]

    shown = _idle_until(base, game_id, tokens, near)
    _watch(browser, base, game_id, shown["version"])
    warning = by_testid(browser, "ending-soon")[0].text
    left = 30 - WARN_AT
    assert warning == f"{left} idle turns left before the game ends: {how}. why?"
    why = by_testid(browser, "ending-soon")[0].find_element("css selector", "a.why")
    assert why.get_attribute("data-rule") == rule
    assert not by_testid(browser, "result")[0].is_displayed()

    shown = _idle_until(base, game_id, tokens, lambda g: g["status"] == "finished")
    assert shown["result"]["ended_by"] == "idle_turns"
    _watch(browser, base, game_id, shown["version"])
    words = f"ended after 30 idle turns in a row (service rule {rule})"
    reason = wait_page(browser, lambda: by_testid(browser, "end-reason"), what="the end")
    shown = words.replace(f" (service rule {rule})", "")
    assert reason[0].text == shown[0].upper() + shown[1:] + ". why?"
    assert by_testid(browser, "result")[0].text.startswith("Game over\n")
    assert not by_testid(browser, "ending-soon")
    log = wait_page(
        browser,
        lambda: [li.text for li in by_testid(browser, "log")[0].find_elements("css selector", "li")
                 if li.text.startswith("The game is over")],
        what="the end in the log",
    )  # fmt: skip
    assert log == [f"The game is over: {words}."]
    if game == "keltis-card":  # the final round E3 follows the idle run
        lines = by_testid(browser, "log")[0].text
        assert "Final round: 30 idle turns in a row (service rule E4)." in lines
