"""Debian's headless Chromium for the browser tests (devtools.chromium): a test skips, saying
which binary is missing and how to install it, when chromium or its chromedriver is absent
(the one place that decides it: `skip_unless_browser`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from devtools import chromium


def skip_unless_browser() -> None:
    """Skip the calling test when chromium or chromedriver is absent, with the reason."""
    reason = chromium.missing_reason()
    if reason is not None:
        pytest.skip(reason)


def start_chromium(width: int = 1280, height: int = 1000, performance_log: bool = False):
    """A WebDriver over Debian's chromium; skips the test when chromium or its driver is
    absent."""
    skip_unless_browser()
    return chromium.start_chromium(width, height, performance_log)


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
