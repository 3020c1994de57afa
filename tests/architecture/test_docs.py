"""The README is a front page and the documentation site builds strictly: every page in
the nav, no broken link or anchor (mkdocs, pinned, offline)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]
README_MAX_LINES = 250


def test_the_readme_is_a_front_page():
    readme = (CHECKOUT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= README_MAX_LINES
    assert "make run" in readme and "make test" in readme  # the two commands


def test_every_link_of_the_readme_names_a_file_of_the_checkout():
    readme = (CHECKOUT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\((?!https?:|#)([^)]+)\)", readme)
    assert targets
    assert [t for t in targets if not (CHECKOUT / t.split("#")[0]).exists()] == []


def test_the_documentation_builds_strictly(tmp_path):
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=CHECKOUT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert built.returncode == 0, built.stderr
    assert "WARNING" not in built.stderr, built.stderr
    assert (tmp_path / "index.html").exists() and (tmp_path / "search-bot" / "index.html").exists()


CODE = ("api", "application", "store", "workers", "domain", "replays", "cli", "gamelog")
CODE += ("tournaments", "ladder", "clients", "tests", "bench", "devtools", "scripts")
CODE += ("examples",)
ISSUE_NUMBER = re.compile(r"\b[Ii]ssue \d+")


def test_code_says_why_not_which_issue():
    """An issue number means nothing to a reader of the code: comments say why."""
    suffixes = {".py", ".js", ".lua", ".css", ".html"}
    cited = [
        f"{path.relative_to(CHECKOUT)}:{number}"
        for package in CODE
        for path in sorted((CHECKOUT / package).rglob("*"))
        if path.suffix in suffixes and "node_modules" not in path.parts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if ISSUE_NUMBER.search(line)
    ]
    assert cited == []
