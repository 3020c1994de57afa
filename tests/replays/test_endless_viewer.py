"""E4-E6, F5, F6 in the replay viewer: a game ended by 30 idle turns in a row or at the
400-turn limit says so in words (the end line, the chart, the step's events), a step near
the end of an idle run carries the table's warning, every other ending is named too, and
such a game's analysis names its end and is shown beside the steps."""

from __future__ import annotations

from functools import cache

import pytest

from application.bots.analysis import analyse_replay
from domain.endless import IDLE_TURNS
from replays.build import build_replay
from replays.html import render_html
from replays.timeline import steps
from tests.replays.conftest import finished_replay
from tests.support.chromium import start_chromium
from tests.support.idle_play import idle_entries

CARD, DICE = "keltis-card", "keltis-dice"
RULES = {  # ending -> (card rule, dice rule) in the words
    "idle_turns": ("E4", "F5"),
    "turn_limit": ("E5", "F6"),
}


@pytest.fixture(scope="module")
def browser():
    driver = start_chromium()
    yield driver
    driver.quit()


@cache
def _replay(game: str, ending: str) -> dict:
    progress_every = None if ending == "idle_turns" else IDLE_TURNS - 5
    replay = build_replay(f"g-{game}-{ending}", idle_entries(game, progress_every))
    assert replay["result"]["ended_by"] == ending
    return replay


def _open(browser, tmp_path, replay: dict, step: int | str = "") -> None:
    path = tmp_path / "replay.html"
    path.write_text(render_html(replay), encoding="utf-8")
    browser.get(f"{path.as_uri()}#{step}")
    assert browser.execute_script("return document.body.dataset.ready") == "1"


def _text(browser, testid: str) -> str:
    return browser.execute_script(
        "const e = document.querySelector('[data-testid=' + arguments[0] + ']');"
        "return e ? e.textContent : null;",
        testid,
    )


def _events(browser) -> list[str]:
    return browser.execute_script(
        "return [...document.querySelectorAll('[data-testid=step-events] li')]"
        ".map((li) => li.textContent)"
    )


def _words(game: str, ending: str) -> str:
    rule = RULES[ending][game == DICE]
    if ending == "idle_turns":
        return f"ended after 30 idle turns in a row (service rule {rule})"
    return f"ended at the 400-turn limit (service rule {rule})"


@pytest.mark.parametrize(
    ("game", "ending"),
    [(CARD, "idle_turns"), (DICE, "idle_turns"), (CARD, "turn_limit"), (DICE, "turn_limit")],
    ids=["E4", "F5", "E5", "F6"],
)
def test_E4_E5_F5_F6_E6_the_viewer_says_which_service_rule_ended_the_game(
    browser, tmp_path, game, ending
):
    replay = _replay(game, ending)
    _open(browser, tmp_path, replay, "end")
    browser.execute_script("KeltisReplay.show(Infinity)")
    words = _words(game, ending)
    assert _text(browser, "end-reason") == f"Game over: {words}."
    assert _text(browser, "chart-end") == words[0].upper() + words[1:] + "."
    assert f"The game is over: {words}." in _events(browser)


@pytest.mark.parametrize("ending", ["idle_turns", "turn_limit"], ids=["E4", "E5"])
def test_E4_E5_the_viewer_names_what_started_the_final_round(browser, tmp_path, ending):
    replay = _replay(CARD, ending)
    at = next(
        s["step"]
        for s in steps(replay)
        if any(e["type"] == "final_round_started" for e in s["events"])
    )
    _open(browser, tmp_path, replay, at)
    started = (
        "30 idle turns in a row (service rule E4)"
        if ending == "idle_turns"
        else "the 400th turn is over (service rule E5)"
    )
    assert f"Final round: {started}." in _events(browser)
    rule = started[-3:-1]  # the rule that started it is the one "why?" opens
    plain = started.replace(f" (service rule {rule})", "")
    shown = f"Final round: {plain}. Lay up to two cards, or stop. why?"
    assert _text(browser, "final-round") == shown
    assert (
        browser.execute_script(
            "return document.querySelector('[data-testid=final-round] a.why').dataset.rule"
        )
        == rule
    )


@pytest.mark.parametrize(
    ("game", "how"),
    [(CARD, "draw from the draw pile or lay a card (service rule E4)"),
     (DICE, "move a marker (service rule F5)")],
    ids=["E4", "F5"],
)  # fmt: skip
def test_E4_F5_a_step_near_30_idle_turns_warns_how_many_are_left(browser, tmp_path, game, how):
    replay = _replay(game, "idle_turns")
    timeline = steps(replay)

    def first(idle: int) -> int:
        return next(
            s["step"]
            for s in timeline
            if s["view"]["idle_turns"] == idle and not s["view"]["progressed"]
        )

    _open(browser, tmp_path, replay, first(19))
    assert _text(browser, "ending-soon") is None  # quiet until 20 idle turns in a row
    browser.execute_script("KeltisReplay.show(arguments[0])", first(20))
    how = how.split(" (service rule")[0]  # the rule's id is the "why?" link
    assert _text(browser, "ending-soon") == f"10 idle turns left before the game ends: {how}. why?"
    browser.execute_script("KeltisReplay.show(arguments[0])", first(IDLE_TURNS - 1))
    assert _text(browser, "ending-soon") == f"1 idle turn left before the game ends: {how}. why?"


@pytest.mark.parametrize(
    ("game", "ending", "words"),
    [
        (CARD, "fifth_row", "a fifth row was closed (E1)"),
        (CARD, "deck_empty", "the draw pile ran out (E2)"),
        (DICE, "goal_markers", "enough markers reached the goal zone (F1)"),
        (DICE, "all_markers_in_goal", "one player had all 4 markers in the goal zone (F1)"),
    ],
    ids=["E1", "E2", "F1-goal-markers", "F1-all-markers"],
)
def test_E6_the_rule_books_own_ends_are_named_too(browser, tmp_path, game, ending, words):
    replay = finished_replay(game, players=2, seed=4)
    replay["result"]["ended_by"] = ending  # the page shows the result it is given
    _open(browser, tmp_path, replay, "end")
    browser.execute_script("KeltisReplay.show(Infinity)")
    assert _text(browser, "end-reason") == f"Game over: {words}."


def test_E6_an_older_log_without_ended_by_is_named_from_its_last_table(browser, tmp_path):
    replay = finished_replay(CARD, players=2, seed=4)
    ending = replay["result"].pop("ended_by")
    _open(browser, tmp_path, replay)
    browser.execute_script("KeltisReplay.show(Infinity)")
    words = {"fifth_row": "a fifth row was closed (E1)", "deck_empty": "the draw pile ran out (E2)"}
    assert _text(browser, "end-reason") == f"Game over: {words[ending]}."


def test_E4_E6_a_game_ended_by_idle_turns_is_analysed_and_shown(browser, tmp_path):
    replay = _replay(CARD, "idle_turns")
    analysis = analyse_replay(replay, 1)
    assert analysis["ended_by"] == "idle_turns"
    last = analysis["decisions"][-1]
    _open(browser, tmp_path, {**replay, "analysis": analysis}, last["step"])
    assert _text(browser, "analysis-step").startswith(
        replay["header"]["players"][last["seat"]]["name"] + " played "
    )
    browser.execute_script("KeltisReplay.show(Infinity)")
    assert _text(browser, "end-reason") == f"Game over: {_words(CARD, 'idle_turns')}."


def test_E4_E5_the_words_use_the_service_rules_own_limits():
    """words.js states the limits it words (no import from Python): they are the domain's."""
    from pathlib import Path

    from domain.endless import TURN_LIMIT

    text = (Path(__file__).parents[2] / "replays" / "words.js").read_text(encoding="utf-8")
    assert f"export const IDLE_TURNS = {IDLE_TURNS};" in text
    assert f"export const TURN_LIMIT = {TURN_LIMIT};" in text


@pytest.mark.parametrize("game", [CARD, DICE], ids=["E4", "F5"])
def test_E4_F5_the_terminal_summary_says_which_rule_ended_the_game(game):
    from replays.text import render_summary

    replay = _replay(game, "idle_turns")
    lines = render_summary(replay["header"], replay["result"]).splitlines()
    assert f"game over: {_words(game, 'idle_turns')}" in lines
    assert lines[-1].startswith("won by")
