"""The replay viewer draws each step with the table's components, plays
itself (play/pause, speed), goes to a step from a click on the chart, links back to the
lobby, and keeps the verification details folded away."""

from __future__ import annotations

import time

import pytest

from devtools.webpages import wait_for
from replays.bundle import bundle
from replays.html import render_html
from tests.replays.conftest import finished_replay
from tests.support.chromium import start_chromium


@pytest.fixture(scope="module")
def browser():
    driver = start_chromium()
    yield driver
    driver.quit()


def _open(browser, tmp_path, game: str, players: int = 2) -> dict:
    replay = finished_replay(game, players=players, seed=4)
    path = tmp_path / "replay.html"
    path.write_text(render_html(replay), encoding="utf-8")
    browser.get(path.as_uri())
    assert browser.execute_script("return document.body.dataset.ready") == "1"
    return replay


def _js(browser, script: str, *args):
    return browser.execute_script(script, *args)


def _step(browser) -> int:
    return int(
        _js(browser, "return document.querySelector('[data-testid=step-number]').textContent")
    )


def _click(browser, testid: str) -> None:
    _js(browser, f"document.querySelector('[data-testid={testid}]').click()")


def test_item8_steps_are_drawn_with_the_tables_components(browser, tmp_path):
    _open(browser, tmp_path, "keltis-card")
    # the web client's table: its seat panels, piles and card chips with colour symbols
    seats = "#table [data-testid=seat-0], #table [data-testid=seat-1]"
    assert _js(browser, f"return document.querySelectorAll('{seats}').length") == 2
    piles = ["brown", "yellow", "pink", "green", "blue", "point"]
    found = (
        "return arguments[0].map((p) =>"
        " !!document.querySelector('#table .piles [data-testid=pile-' + p + ']'))"
    )
    assert _js(browser, found, piles) == [True] * 6
    mark = _js(browser, "return document.querySelector('#table .card .mark').textContent")
    assert mark in "■●♥♣◆✦"
    _open(browser, tmp_path, "keltis-dice")
    assert _js(browser, "return document.querySelectorAll('#table .path .field').length") == 45


def test_item8_autoplay_runs_pauses_and_changes_speed(browser, tmp_path):
    _open(browser, tmp_path, "keltis-dice")
    _js(browser, "const s = document.querySelector('[data-testid=speed]'); s.value = '120';")
    _click(browser, "play")
    assert _js(browser, "return document.querySelector('[data-testid=play]').ariaPressed") == "true"
    step = "document.querySelector('[data-testid=step-number]').textContent"
    wait_for(browser, f"return Number({step}) >= 3", timeout_s=15)  # autoplay moved on
    _click(browser, "play")  # pause
    paused_at = _step(browser)
    assert (
        _js(browser, "return document.querySelector('[data-testid=play]').ariaPressed") == "false"
    )
    time.sleep(0.5)  # four ticks' time: nothing may move while paused
    assert _step(browser) == paused_at


def test_item8_a_click_on_the_chart_goes_to_that_step(browser, tmp_path):
    _open(browser, tmp_path, "keltis-card")
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    chart = browser.find_element(By.CSS_SELECTOR, "[data-testid=score-chart]")
    box = chart.rect
    # the plot runs from x=52 to x=630 of the 640-wide view box; click at its middle
    target_x = box["width"] * (52 + (630 - 52) / 2) / 640
    ActionChains(browser).move_to_element_with_offset(
        chart, int(target_x - box["width"] / 2), 0
    ).click().perform()
    total = int(
        _js(browser, "return document.querySelector('[data-testid=step-total]').textContent")
    )
    assert abs(_step(browser) - total / 2) <= max(2, total // 50)
    assert total > 20  # a real game: the middle is far from the first step


def test_item8_links_back_to_the_lobby_and_folds_the_hashes_away(browser, tmp_path):
    replay = _open(browser, tmp_path, "keltis-card")
    links = _js(
        browser,
        "return [...document.querySelectorAll('header a')].map(a => a.getAttribute('href'))",
    )
    assert "/" in links
    details = "document.querySelector('[data-testid=verification]')"
    assert _js(browser, f"return {details}.open") is False
    assert not _js(
        browser, "return document.querySelector('[data-testid=final-hash]').checkVisibility()"
    )
    final = _js(browser, "return document.querySelector('[data-testid=final-hash]').textContent")
    assert final == replay["chain"]["final"]
    _js(browser, f"{details}.open = true")
    assert _js(
        browser, "return document.querySelector('[data-testid=final-hash]').checkVisibility()"
    )


def test_item8_the_analysis_panel_has_its_mount_point_and_step_hook(browser, tmp_path):
    _open(browser, tmp_path, "keltis-card")
    _js(
        browser,
        "window.seen = []; KeltisReplay.onStep((i) => seen.push(i));"
        "KeltisReplay.mount.textContent = 'panel';",
    )
    _click(browser, "next")
    assert _js(browser, "return window.seen") == [1]
    assert _js(browser, "return document.getElementById('analysis').textContent") == "panel"


def test_item8_bundler_wraps_modules_in_import_order():
    files = {
        "a.js": 'import {b as bee} from "./b.js";\nexport function a() { return bee(); }\n',
        "b.js": 'import * as c from "./c.js";\nexport const b = () => c.c;\n',
        "c.js": "export const c = 3;\nconst hidden = 1;\nexport {hidden as shown};\n",
    }
    text = bundle("a.js", files.__getitem__)
    assert text.index('__modules["c.js"]') < text.index('__modules["b.js"] =')
    assert "return {c, shown: hidden};" in text
    assert 'const {b: bee} = __modules["b.js"];' in text
    with pytest.raises(ValueError):
        bundle("x.js", {"x.js": "export default 1;\n"}.__getitem__)
    with pytest.raises(ValueError):
        bundle(
            "x.js",
            {
                "x.js": 'import {y} from "./y.js";\n',
                "y.js": 'import {x} from "./x.js";\n',
            }.__getitem__,
        )


def test_item8_a_panel_module_listed_in_panels_is_mounted_beside_the_step(
    browser, tmp_path, monkeypatch
):
    from replays import html

    panel = (
        'import {el} from "./dom.js";\n'
        "export function mount(replay) {\n"
        "  replay.onStep((i) => replay.mount.replaceChildren("
        'el("p", {"data-testid": "panel-step", text: "step " + i})));\n'
        "}\n"
    )
    source = html._source
    monkeypatch.setattr(html, "PANELS", ("panel.js",))
    monkeypatch.setattr(html, "_source", lambda name: panel if name == "panel.js" else source(name))
    html.words_script.cache_clear()
    try:
        _open(browser, tmp_path, "keltis-card")
        _click(browser, "next")
        text = "document.querySelector('[data-testid=panel-step]').textContent"
        assert _js(browser, f"return {text}") == "step 1"
    finally:
        html.words_script.cache_clear()


def test_item6_step_lines_name_dice_fields_by_value_as_the_board_does(browser, tmp_path):
    from replays.timeline import steps

    replay = _open(browser, tmp_path, "keltis-dice")
    moved = [
        (step, event)
        for step in steps(replay)
        for event in step["events"]
        if event["type"] == "marker_moved" and event.get("from")
    ]
    assert moved, "the fixed game moves a placed marker"
    step, event = moved[0]
    values = step["view"]["board"]["paths"][event["color"]]["values"]
    _js(browser, "KeltisReplay.show(arguments[0])", step["step"])
    lines = _js(
        browser,
        "return [...document.querySelectorAll('[data-testid=step-events] li')]"
        ".map((li) => li.textContent)",
    )
    expected = (
        f"from the field worth {values[event['from'] - 1]}"
        f" to the field worth {values[event['to'] - 1]}."
    )
    assert any(expected in line for line in lines), lines
    assert not any("to field " in line for line in lines), lines
