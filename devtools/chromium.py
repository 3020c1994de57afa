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


class ChromiumMissing(RuntimeError):
    """Debian's chromium (or its chromedriver) is not installed."""


def start_chromium(width: int = 1280, height: int = 1000, performance_log: bool = False):
    """A WebDriver over Debian's chromium; ChromiumMissing when it is absent."""
    if not CHROMIUM.exists():
        raise ChromiumMissing(
            "/usr/bin/chromium is absent: apt-get install -y chromium chromium-driver"
        )
    driver_path = CHROMEDRIVER if CHROMEDRIVER.exists() else shutil.which("chromedriver")
    if not driver_path:
        raise ChromiumMissing(
            "chromium is installed but chromedriver is not: install chromium-driver"
        )
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
    return webdriver.Chrome(service=Service(str(driver_path)), options=options)
