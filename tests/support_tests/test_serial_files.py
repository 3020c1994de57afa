"""`make test` runs the tests marked serial from the files its SERIAL_TESTS names: a file
that gains the mark must be named there, or its serial tests would run in neither part."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERIAL_MARK = re.compile(r"\bpytest\.mark\.serial\b")


def _makefile_serial_tests() -> set[str]:
    found = re.search(r"^SERIAL_TESTS := (.+)$", (ROOT / "Makefile").read_text(), re.MULTILINE)
    if found is None:
        raise AssertionError("the Makefile names no SERIAL_TESTS")
    return set(found.group(1).split())


def _files_with_the_serial_mark() -> set[str]:
    return {
        str(path.relative_to(ROOT))
        for path in (ROOT / "tests").rglob("test_*.py")
        if SERIAL_MARK.search(path.read_text())
    }


def test_the_makefile_names_every_file_with_serial_tests_and_no_other():
    assert _makefile_serial_tests() == _files_with_the_serial_mark()
