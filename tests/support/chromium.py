"""Debian's headless Chromium for the browser tests (devtools.chromium): a test skips when
chromium is absent and fails when chromium is there without its driver."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from devtools import chromium


def start_chromium(width: int = 1280, height: int = 1000, performance_log: bool = False):
    """A WebDriver over Debian's chromium; skips the test when chromium is absent."""
    if not chromium.CHROMIUM.exists():
        pytest.skip("/usr/bin/chromium is absent: apt-get install -y chromium chromium-driver")
    try:
        return chromium.start_chromium(width, height, performance_log)
    except chromium.ChromiumMissing as missing:
        pytest.fail(str(missing))


@contextmanager
def chromium_page(page_load_timeout_s: float = 20, **options) -> Iterator:
    """`start_chromium(**options)` with pages given `page_load_timeout_s` to load; quit after
    the block."""
    driver = start_chromium(**options)
    try:
        driver.set_page_load_timeout(page_load_timeout_s)
        yield driver
    finally:
        driver.quit()
