"""Browser tests skip, naming the missing binary and the install command, on a machine with
chromium but no chromedriver or with neither (README "Tests")."""

from __future__ import annotations

import pytest

from devtools import chromium
from tests.support.chromium import skip_unless_browser, start_chromium


@pytest.fixture
def machine(monkeypatch, tmp_path):
    """A machine whose chromium and chromedriver are files in tmp_path (made by the test),
    with nothing on PATH."""
    monkeypatch.setattr(chromium, "CHROMIUM", tmp_path / "chromium")
    monkeypatch.setattr(chromium, "CHROMEDRIVER", tmp_path / "chromedriver")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    return tmp_path


def skip_reason(call) -> str:
    with pytest.raises(pytest.skip.Exception) as skipped:
        call()
    return str(skipped.value)


def test_chromium_without_chromedriver_skips_naming_the_driver(machine):
    (machine / "chromium").touch()
    reason = skip_reason(start_chromium)
    assert "chromedriver" in reason and "(chromium)" not in reason
    assert chromium.INSTALL_COMMAND in reason


def test_neither_binary_skips_naming_both(machine):
    reason = skip_reason(skip_unless_browser)
    assert "(chromium)" in reason and "(chromedriver)" in reason
    assert chromium.INSTALL_COMMAND in reason


def test_both_binaries_there_is_no_reason_to_skip(machine):
    (machine / "chromium").touch()
    (machine / "chromedriver").touch()
    assert chromium.missing_reason() is None
    skip_unless_browser()  # returns: nothing to skip


def test_a_chromedriver_on_path_counts(machine):
    (machine / "chromium").touch()
    (machine / "empty").mkdir()
    driver = machine / "empty" / "chromedriver"
    driver.touch(mode=0o755)
    assert chromium.driver_path() == driver
    assert chromium.missing_reason() is None
