"""The replay viewer shows a game's analysis beside each step, from the
replay's `analysis`: replays/analysis.js, a panel of replays.html.PANELS that follows the steps
through `KeltisReplay.onStep`; a replay without one shows no analysis section."""

from __future__ import annotations

import pytest

from application.bots.analysis import analyse_replay
from replays import html
from replays.html import render_html, viewer_data
from tests.replays.conftest import finished_replay
from tests.support.chromium import start_chromium


@pytest.fixture(scope="module")
def browser():
    driver = start_chromium()
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def analysed() -> dict:
    replay = finished_replay("keltis-dice", players=2, seed=3)
    return {**replay, "analysis": analyse_replay(replay, 1)}


def _open(browser, tmp_path, replay: dict, step: int = 0) -> None:
    path = tmp_path / "replay.html"
    path.write_text(render_html(replay), encoding="utf-8")
    browser.get(f"{path.as_uri()}#{step}")
    assert browser.execute_script("return document.body.dataset.ready") == "1"


def _text(browser, testid: str) -> str:
    from selenium.webdriver.common.by import By

    return browser.find_element(By.CSS_SELECTOR, f'[data-testid="{testid}"]').text


def test_the_page_embeds_the_analysis(analysed):
    assert viewer_data(analysed)["analysis"] == analysed["analysis"]
    assert viewer_data({k: v for k, v in analysed.items() if k != "analysis"})["analysis"] is None


def test_each_step_shows_its_decision_and_each_seat_its_summary(browser, tmp_path, analysed):
    lines = analysed["analysis"]["decisions"]
    judged = max(lines, key=lambda line: line["loss"])
    _open(browser, tmp_path, analysed, judged["step"])
    shown = _text(browser, "analysis-step")
    assert f"{judged['loss']:.1f}" in shown or judged["loss"] == 0
    assert "played" in shown and "best" in shown
    if judged["mark"]:
        assert judged["mark"] in shown
    unjudged = 0  # the opening: nobody decided
    browser.execute_script(
        "const s = document.querySelector('[data-testid=slider]');"
        "s.value = arguments[0]; s.dispatchEvent(new Event('input'));",
        unjudged,
    )
    assert _text(browser, "analysis-step") == "No choice to judge at this step."
    for seat in analysed["analysis"]["seats"]:
        text = _text(browser, f"analysis-seat-{seat['seat']}")
        assert f"average loss {seat['average_loss']:.2f}" in text


def test_a_replay_without_analysis_shows_none(browser, tmp_path):
    from selenium.webdriver.common.by import By

    _open(browser, tmp_path, finished_replay("keltis-dice", players=2, seed=3))
    assert browser.find_elements(By.CSS_SELECTOR, '[data-testid="analysis"]') == []


def test_the_analysis_panel_is_a_panel_module_mounted_through_the_one_hook(analysed):
    assert "analysis.js" in html.PANELS
    page = render_html(analysed)
    assert '__modules["analysis.js"]' in page
    assert "mountAnalysis" not in page and "showAnalysis" not in page


def test_the_analysis_panel_follows_show_through_on_step(browser, tmp_path, analysed):
    judged = analysed["analysis"]["decisions"][0]
    _open(browser, tmp_path, analysed)
    browser.execute_script("KeltisReplay.show(arguments[0])", judged["step"])
    assert _text(browser, "analysis-step").startswith(
        browser.execute_script("return KeltisReplay.name(arguments[0])", judged["seat"])
        + " played "
    )
