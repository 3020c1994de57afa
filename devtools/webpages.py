"""The web client's pages in a browser, for the cross-page tests and bench.page_weight:
games set up through the public API, a seat handed to the browser, the bytes a visit
transferred (CDP-free: the Resource Timing entries' transferSize), a phone's viewport."""

from __future__ import annotations

import json
import time

import requests

LOBBY_READY = "return document.body.dataset.lists === '1'"
TABLE_READY = (
    "return !!(document.querySelector('[data-testid=status]') || {dataset: {}}).dataset.version"
)
REPLAY_READY = "return document.body.dataset.ready === '1'"
DOCS_READY = "return document.body.dataset.ready === '1'"

# Everything of a visit but the game's own data (the API under /v1/) and the page's icon.
TRANSFERRED = """
const entries = [...performance.getEntriesByType('navigation'),
                 ...performance.getEntriesByType('resource')];
return entries.filter((e) => !new URL(e.name).pathname.startsWith('/v1/'))
  .map((e) => ({url: e.name, bytes: e.transferSize}));
"""


def create(base: str, game: str, players: list[dict], options: dict | None = None) -> dict:
    """A new game (POST /v1/games), its answer."""
    body = {"game": game, "players": players, **({"options": options} if options else {})}
    answer = requests.post(f"{base}/v1/games", json=body, timeout=10)
    answer.raise_for_status()
    return answer.json()


def finished(base: str, made: dict, timeout_s: float = 120.0) -> dict:
    """The game once it is over (a bots-only game is played by the worker)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        game = requests.get(f"{base}/v1/games/{made['id']}", timeout=10).json()
        if game["status"] == "finished":
            return game
        time.sleep(0.2)
    raise TimeoutError(f"game {made['id']} did not finish in {timeout_s} s")


def seat(driver, base: str, made: dict, index: int = 0) -> None:
    """Hand seat `index` of a created game to the browser, as the lobby does (its seat, and
    the game among "Your games")."""
    given = made["seats"][index]
    driver.get(base + "/web/app.css")
    driver.execute_script(
        "localStorage.setItem(arguments[0], arguments[1]);"
        "const mine = JSON.parse(localStorage.getItem('keltis.mine') || '[]');"
        "mine.unshift({id: arguments[2], game: arguments[3], at: Date.now()});"
        "localStorage.setItem('keltis.mine', JSON.stringify(mine));",
        "keltis.seat." + made["id"],
        json.dumps({"seat": given["seat"], "token": given["token"], "name": given["name"]}),
        made["id"],
        made["game"],
    )


def wait_for(driver, script: str, timeout_s: float = 30.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if driver.execute_script(script):
            return
        time.sleep(0.05)
    raise TimeoutError(f"the page never got ready: {script}")


def visit(driver, url: str, ready: str) -> list[dict]:
    """Load the page, wait until it is ready, and list what it transferred (not /v1/)."""
    driver.get(url)
    wait_for(driver, ready)
    return driver.execute_script(TRANSFERRED)


def second_visit_bytes(driver, url: str, ready: str) -> tuple[int, int]:
    """(bytes of a first visit, bytes of a second visit with the browser's cache) of the page
    and its files, the game's own data (/v1/) left out."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    first = sum(e["bytes"] for e in visit(driver, url, ready))
    second = sum(e["bytes"] for e in visit(driver, url, ready))
    return first, second


def phone(driver, width: int = 390, height: int = 844) -> None:
    """A phone's viewport (the window itself cannot get narrower than ~500 px)."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True},
    )


def desktop(driver) -> None:
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
