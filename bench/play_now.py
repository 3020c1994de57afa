""" "Play now" on a fresh server: from a lone seek to its first game.

Starts the served stack as `make run` does (bench.api.served_stack: its own Redis in a
temporary folder, the default settings, so the default pool bots and their wait), then
TRIES times, one after another so that each seeker is alone in the pool: a new account
opens its event stream (as the lobby does), places a rated 2-player keltis-card seek
(POST /v1/seeks) and waits for `game_started` on the stream. One sample per try: from
sending the seek to reading that line. Prints play_now_first_game_p50_s,
play_now_first_game_p99_s (goal: p99 under 10 s) and the bots that joined. Then, where
Debian's headless Chromium is installed, the whole of it as a person sees it, TRIES more
times: a new account's lobby, a click on Play now, until its table shows the game
(play_now_table_p50_s, play_now_table_p99_s: the seek, the wait, the page's navigation).
"""

from __future__ import annotations

import collections
import json
import math
import statistics
import time
import uuid

import requests

from bench.api import served_stack
from devtools.chromium import missing_reason, start_chromium

TRIES = 20
TIMEOUT_S = 30.0  # a try without a game by then counts as this long


def one_try(base_url: str) -> tuple[float, str]:
    """Seconds from the seek to `game_started` for a new account, and the bot it met."""
    name = "pn" + uuid.uuid4().hex[:12]
    made = requests.post(f"{base_url}/v1/accounts", json={"name": name}, timeout=10)
    made.raise_for_status()
    headers = {"Authorization": f"Bearer {made.json()['key']}"}
    stream = requests.get(
        f"{base_url}/v1/me/events", headers=headers, stream=True, timeout=TIMEOUT_S
    )
    try:
        asked = time.perf_counter()
        seek = requests.post(
            f"{base_url}/v1/seeks", json={"game": "keltis-card"}, headers=headers, timeout=10
        )
        seek.raise_for_status()
        game_id = None
        for line in stream.iter_lines():
            if time.perf_counter() - asked > TIMEOUT_S:
                break
            if line and json.loads(line).get("type") == "game_started":
                game_id = json.loads(line)["game"]
                break
        took = time.perf_counter() - asked if game_id else TIMEOUT_S
    finally:
        stream.close()
    requests.delete(f"{base_url}/v1/seeks/{seek.json()['id']}", headers=headers, timeout=10)
    if game_id is None:
        return took, "none"
    game = requests.get(f"{base_url}/v1/games/{game_id}", timeout=10).json()
    bots = [p["bot"] for p in game["players"] if p.get("bot")]
    return took, ",".join(bots) or "a person"


# The lobby is ready to take the click: the seek panel listens and the lists are drawn.
LOBBY_READY = (
    "const panel = document.getElementById('seek-panel');"
    "return !!panel && panel.dataset.ready === '1' && document.body.dataset.lists === '1';"
)
TABLE_DRAWN = (
    "const status = document.querySelector('[data-testid=status]');"
    "return location.pathname.startsWith('/play/') && !!status && !!status.dataset.version;"
)


def _until(driver, script: str, timeout_s: float = TIMEOUT_S) -> bool:
    deadline = time.perf_counter() + timeout_s
    while time.perf_counter() < deadline:
        if driver.execute_script(script):
            return True
        time.sleep(0.02)
    return False


def one_browser_try(driver, base_url: str) -> float:
    """Seconds from a new account's click on Play now to its table showing the game."""
    made = requests.post(
        f"{base_url}/v1/accounts", json={"name": "pb" + uuid.uuid4().hex[:12]}, timeout=10
    ).json()
    driver.get(base_url + "/web/app.css")
    driver.execute_script(
        "localStorage.clear();"
        "localStorage.setItem('keltis.account',"
        " JSON.stringify({name: arguments[0], key: arguments[1]}))",
        made["name"],
        made["key"],
    )
    driver.get(base_url + "/")
    if not _until(driver, LOBBY_READY):
        raise RuntimeError("the lobby never got ready")
    clicked = time.perf_counter()
    driver.execute_script("document.getElementById('play-now').click();")
    return time.perf_counter() - clicked if _until(driver, TABLE_DRAWN) else TIMEOUT_S


def measure_browser(base_url: str, tries: int = TRIES) -> dict:
    driver = start_chromium()
    try:
        return _figures([one_browser_try(driver, base_url) for _ in range(tries)])
    finally:
        driver.quit()


def _figures(samples: list[float]) -> dict:
    samples = sorted(samples)
    return {
        "p50": statistics.median(samples),
        "p99": samples[math.ceil(len(samples) * 0.99) - 1],  # nearest rank: of 20, the slowest
        "max": samples[-1],
    }


def measure(base_url: str, tries: int = TRIES) -> dict:
    samples, met = [], collections.Counter()
    for _ in range(tries):
        took, bot = one_try(base_url)
        samples.append(took)
        met[bot] += 1
    return {**_figures(samples), "met": dict(met)}


def run() -> None:
    browser = None
    with served_stack() as stack:
        figures = measure(stack.base_url)
        if missing_reason() is None:
            browser = measure_browser(stack.base_url)
    print(f"play_now_tries: {TRIES}")
    print(f"play_now_first_game_p50_s: {figures['p50']:.2f}")
    print(f"play_now_first_game_p99_s: {figures['p99']:.2f}")
    print(f"play_now_first_game_max_s: {figures['max']:.2f}")
    print(f"play_now_opponents: {figures['met']}")
    if browser is None:
        print(f"play_now_table: skipped ({missing_reason()})")
        return
    print(f"play_now_table_p50_s: {browser['p50']:.2f}")
    print(f"play_now_table_p99_s: {browser['p99']:.2f}")
    print(f"play_now_table_max_s: {browser['max']:.2f}")


if __name__ == "__main__":
    run()
