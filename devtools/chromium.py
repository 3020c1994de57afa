"""Debian's headless Chromium through chromedriver, for the browser tests and screenshots.

Never downloads anything: the driver is /usr/bin/chromedriver, and Selenium Manager (its
downloads and usage statistics) is turned off.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


INSTALL_COMMAND = "sudo apt-get install -y chromium chromium-driver"


class ChromiumMissing(RuntimeError):
    """Debian's chromium (or its chromedriver) is not installed."""


def driver_path() -> Path | None:
    """The chromedriver to use: Debian's, else one on PATH; None when there is none."""
    if CHROMEDRIVER.exists():
        return CHROMEDRIVER
    found = shutil.which("chromedriver")
    return Path(found) if found else None


def missing_reason() -> str | None:
    """Why a browser cannot be started here (which binary is missing, and the command that
    installs it), or None when chromium and chromedriver are both there."""
    missing = []
    if not CHROMIUM.exists():
        missing.append(f"{CHROMIUM} (chromium)")
    if driver_path() is None:
        missing.append(f"{CHROMEDRIVER} (chromedriver)")
    if not missing:
        return None
    return f"browser test needs chromium and chromedriver; missing: {', '.join(missing)}. " + (
        f"Install with: {INSTALL_COMMAND}"
    )


def start_chromium(width: int = 1280, height: int = 1000, performance_log: bool = False):
    """A WebDriver over Debian's chromium; ChromiumMissing when it or its driver is absent."""
    reason = missing_reason()
    if reason is not None:
        raise ChromiumMissing(reason)
    os.environ["SE_AVOID_STATS"] = "true"
    os.environ["SE_OFFLINE"] = "true"
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in [*CHROMIUM_FLAGS, f"--window-size={width},{height}"]:
        options.add_argument(flag)
    if performance_log:
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    return webdriver.Chrome(service=Service(str(driver_path())), options=options)
