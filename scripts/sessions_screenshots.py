"""Save screenshots of signing in by password, at 1280x800 and 390x844, under
docs/screenshots/: the lobby's account box with the sign-in form filled in
(`lobby-sign-in.png`, `lobby-sign-in-phone.png`) and the account page's signed-in browsers
(`account-sessions.png`, `account-sessions-phone.png`).

Starts the whole stack on a free port as `make run` does (bench.api.served_stack), makes an
account with a password, signs it in from two other browsers through the API (their
User-Agents shown in the list), then signs Debian's headless Chromium in by the lobby's form
(`python scripts/sessions_screenshots.py`). Each shot shows its panel scrolled into view.
"""

from __future__ import annotations

import sys
import time
import uuid
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.api import served_stack
from devtools import webpages
from devtools.chromium import start_chromium
from scripts.screenshots import OUT

PASSWORD = "correct horse battery"
OTHER_BROWSERS = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15"
    " (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
)


def _size(driver, width: int, height: int) -> None:
    """A viewport of exactly `width` x `height` (a phone's one is mobile)."""
    if width < 600:  # a phone's viewport (a window cannot get that narrow)
        webpages.phone(driver, width, height)
        return
    metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)


def _save(driver, panel: str, path: Path) -> None:
    driver.execute_script(
        "document.querySelector(arguments[0]).scrollIntoView({block: 'start'});"
        "window.scrollBy(0, -8);",
        panel,
    )
    time.sleep(0.3)  # the scroll lands before the shot
    driver.save_screenshot(str(path))
    print(f"saved {path}")


def _type(driver, testid: str, text: str) -> None:
    field = driver.find_element("css selector", f'[data-testid="{testid}"]')
    field.clear()
    field.send_keys(text)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with served_stack(web_workers=1, connections=50) as stack:
        base = stack.base_url
        name = "Ann_" + uuid.uuid4().hex[:4]
        body = {"name": name, "password": PASSWORD}
        requests.post(f"{base}/v1/accounts", json=body, timeout=10).raise_for_status()
        for agent in OTHER_BROWSERS:
            headers = {"User-Agent": agent}
            requests.post(f"{base}/v1/sessions", json=body, headers=headers, timeout=10)
        driver = start_chromium()
        try:
            for suffix, width, height in (("", 1280, 800), ("-phone", 390, 844)):
                _size(driver, width, height)
                driver.get(base + "/")
                driver.execute_script("localStorage.clear()")
                driver.get(base + "/")
                webpages.wait_for(driver, webpages.LOBBY_READY)
                _type(driver, "account-name", name)
                _type(driver, "account-password", PASSWORD)
                _save(
                    driver,
                    'section[aria-labelledby="account-h"]',
                    OUT / f"lobby-sign-in{suffix}.png",
                )
                driver.find_element("css selector", '[data-testid="password-sign-in"]').click()
                webpages.wait_for(
                    driver, "return !document.querySelector('[data-testid=\"signed-in\"]').hidden"
                )
                driver.get(f"{base}/accounts/{name}#sessions")
                webpages.wait_for(
                    driver,
                    "return !document.querySelector('[data-testid=\"sessions-panel\"]').hidden",
                )
                _save(driver, "#sessions", OUT / f"account-sessions{suffix}.png")
                held = driver.execute_script(
                    "return JSON.parse(localStorage.getItem('keltis.account'))"
                )
                mine = {"Authorization": "Bearer " + held["key"]}  # the next pass signs in anew
                requests.delete(
                    f"{base}/v1/me/sessions/{held['session']}", headers=mine, timeout=10
                )
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
