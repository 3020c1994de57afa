"""The environment is read in one place: the settings package. Everywhere else reads
`settings.current()`; the CLI may still write the environment of the processes it starts
(a copy of its own with changes)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = (
    "api", "application", "store", "workers", "cli", "gamelog", "tournaments", "replays",
    "domain", "ladder",
)  # fmt: skip
READS = {"get", "__getitem__", "__contains__", "copy", "items", "keys", "values"}


def _is_os_environ(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "environ"
        and isinstance(node.value, ast.Name)
        and node.value.id == "os"
    )


def _copied(node: ast.AST) -> list[ast.AST]:
    """The parts of `node` that copy the environment whole when they are os.environ."""
    if isinstance(node, ast.Dict):
        return [value for key, value in zip(node.keys, node.values, strict=True) if key is None]
    if isinstance(node, ast.keyword) and node.arg is None:
        return [node.value]
    return []


def _reads(node: ast.AST, copies: bool) -> bool:
    """Whether `node` itself reads the environment."""
    if isinstance(node, ast.Attribute) and node.attr == "getenv":
        return isinstance(node.value, ast.Name) and node.value.id == "os"
    if isinstance(node, ast.Attribute) and _is_os_environ(node.value):
        return node.attr in READS
    if isinstance(node, ast.Subscript) and _is_os_environ(node.value):
        return isinstance(node.ctx, ast.Load)
    if isinstance(node, ast.Compare):  # "X" in os.environ
        return any(_is_os_environ(c) for c in node.comparators)
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        defaults = [*node.args.defaults, *node.args.kw_defaults]  # def f(env=os.environ)
        return any(_is_os_environ(d) for d in defaults if d)
    return copies and any(_is_os_environ(part) for part in _copied(node))


def environment_reads(path: Path, copies: bool = True) -> list[int]:
    """Lines of `path` that read os.environ or call os.getenv (writes are not reads); with
    `copies` False, a whole copy ({**os.environ, ...}) is not one either."""
    tree = ast.parse(path.read_text(), str(path))
    return sorted({node.lineno for node in ast.walk(tree) if _reads(node, copies)})


def test_only_the_settings_package_reads_the_environment():
    readers = {
        str(path.relative_to(ROOT)): lines
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if (lines := environment_reads(path, copies=package != "cli"))
    }
    assert readers == {}


def test_the_scan_finds_each_form_of_read(tmp_path):
    source = tmp_path / "reader.py"
    source.write_text(
        "import os\n"
        "a = os.environ.get('A')\n"
        "b = os.environ['B']\n"
        "c = os.getenv('C')\n"
        "d = {**os.environ}\n"
        "e = 'E' in os.environ\n"
        "def f(env=os.environ): pass\n"
        "os.environ['G'] = '1'\n"
        "os.environ.setdefault('H', '1')\n"
    )
    assert environment_reads(source) == [2, 3, 4, 5, 6, 7]
    assert environment_reads(source, copies=False) == [2, 3, 4, 6, 7]
