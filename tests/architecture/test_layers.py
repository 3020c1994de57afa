"""Imports run one way: domain <- gamelog <- tournaments/replays <- store <- application <-
api / workers / cli (docs/DESIGN.md, "Service"). Checked on the source, function-level
imports included, so that no layer reaches up, lazily or not."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROJECT = {
    "domain", "gamelog", "tournaments", "replays", "store", "application", "api", "workers",
    "cli", "bench", "ladder", "devtools", "settings",
}  # fmt: skip
ALLOWED = {
    "settings": {"settings"},
    "domain": {"domain"},
    "gamelog": {"settings", "domain", "gamelog"},
    "tournaments": {"settings", "domain", "tournaments"},
    "ladder": {"settings", "ladder"},
    "replays": {"settings", "domain", "gamelog", "replays"},
    "store": {"settings", "domain", "gamelog", "tournaments", "ladder", "store"},
    "application": {
        "settings",
        "domain",
        "gamelog",
        "tournaments",
        "ladder",
        "replays",
        "store",
        "application",
    },
    "api": {
        "settings",
        "domain",
        "gamelog",
        "tournaments",
        "ladder",
        "replays",
        "store",
        "application",
        "api",
    },
    "workers": {"settings", "domain", "gamelog", "store", "application", "workers"},
}


def imported_packages(path: Path, project: set[str] = PROJECT) -> set[str]:
    """The project's top-level packages that one module imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        found.update(name.split(".")[0] for name in names if name.split(".")[0] in project)
    return found


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_each_layer_imports_only_the_layers_below_it(package):
    wrong = {
        str(path.relative_to(ROOT)): sorted(imported_packages(path) - ALLOWED[package])
        for path in sorted((ROOT / package).rglob("*.py"))
    }
    assert {path: bad for path, bad in wrong.items() if bad} == {}


def test_no_job_is_named_by_a_string():
    """RQ jobs are enqueued by their function object (application.operations.jobs), never by
    name."""
    offenders = []
    for path in sorted(ROOT.glob("*/**/*.py")):
        if ".venv" in path.parts or "tests" in path.parts:
            continue
        text = path.read_text()
        if '"application.operations.jobs.' in text or "'application.operations.jobs." in text:
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


@pytest.mark.parametrize("module", sorted(p.stem for p in (ROOT / "bench").glob("*.py")))
def test_every_benchmark_module_imports(module):
    """`make bench` imports each module by name: none may point at a module that moved."""
    importlib.import_module(f"bench.{module}")


@pytest.mark.parametrize("package", ["bench", "devtools", "scripts"])
def test_benchmarks_and_their_harnesses_import_nothing_from_tests(package):
    """`python -m bench` runs from an installed project: what it shares with the tests lives
    in `devtools`, never under `tests/`."""
    reaching = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / package).rglob("*.py"))
        if imported_packages(path, {"tests"})
    ]
    assert reaching == []
