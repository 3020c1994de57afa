"""Inside a layer, capabilities import one way too (docs/DESIGN.md, "Capabilities"): a
capability's modules import only their own capability and those listed before it. Checked on
the source, function-level imports included; no module imports itself back through others;
no folder of product code holds more than 20 modules side by side."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Each layer's capabilities, lowest first. A layer's own root modules (api/__init__.py, the
# app factory) and store/keys (every key built in one place, by capability, imported by all)
# stand outside the order.
ORDER = {
    "application": [
        "common", "metrics", "ladder", "webhooks", "accounts", "budget", "games", "bots",
        "arenas", "tournaments", "seeks", "challenges", "live", "operations",
    ],
    "store": [
        "core", "archive", "games", "live", "accounts", "ladder", "budget", "bots",
        "challenges", "seeks", "arenas", "tournaments",
    ],
    "api": [
        "core", "games", "accounts", "ladder", "bots", "live", "arenas", "tournaments",
        "challenges", "seeks", "operations", "webclient",
    ],
}  # fmt: skip
PRODUCT = [
    "api", "application", "store", "domain", "gamelog", "ladder", "tournaments", "replays",
    "workers", "cli", "settings",
]  # fmt: skip
OUTSIDE = {"store": {"keys"}}
MAX_MODULES_SIDE_BY_SIDE = 20


def imported_modules(source: str) -> set[str]:
    """The dotted names a module's source imports, anywhere in it (`from a.b import c` gives
    `a.b` and `a.b.c`: c may be a module)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def wrong_imports(layer: str, capability: str, source: str) -> list[str]:
    """The imports of a module of `layer`/`capability` that reach a capability after it."""
    order = ORDER[layer]
    rank = order.index(capability)
    wrong = set()
    for name in imported_modules(source):
        parts = name.split(".")
        reaches = parts[0] == layer and len(parts) > 1 and parts[1] in order
        if reaches and order.index(parts[1]) > rank:
            wrong.add(f"{layer}.{parts[1]}")
    return sorted(wrong)


def _capability_modules(layer: str):
    for path in sorted((ROOT / layer).rglob("*.py")):
        parts = path.relative_to(ROOT / layer).parts
        if len(parts) > 1 and parts[0] not in OUTSIDE.get(layer, ()):
            yield parts[0], path


@pytest.mark.parametrize("layer", sorted(ORDER))
def test_every_module_of_a_layer_belongs_to_a_capability_in_its_order(layer):
    folders = {
        p.name for p in (ROOT / layer).iterdir() if p.is_dir() and (p / "__init__.py").exists()
    }
    assert folders - OUTSIDE.get(layer, set()) == set(ORDER[layer])


@pytest.mark.parametrize("layer", sorted(ORDER))
def test_capabilities_import_only_themselves_and_those_below(layer):
    wrong = {
        str(path.relative_to(ROOT)): found
        for capability, path in _capability_modules(layer)
        if (found := wrong_imports(layer, capability, path.read_text()))
    }
    assert wrong == {}


def test_a_wrong_import_between_capabilities_is_caught():
    lazy = "def later():\n    from application.operations.jobs import enqueue\n"
    assert wrong_imports("application", "games", lazy) == ["application.operations"]
    assert wrong_imports("application", "operations", lazy) == []
    assert wrong_imports("store", "core", "import store.games.eventstore\n") == ["store.games"]
    assert wrong_imports("api", "games", "from api.core import errors\n") == []


def _module_graph() -> dict[str, set[str]]:
    modules = {}
    for package in PRODUCT:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            modules[name] = path
    graph = {}
    for name, path in modules.items():
        reached = set()
        for target in imported_modules(path.read_text()):
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                reached.add(target)
        graph[name] = reached
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    circles.append(sorted(group))
    return circles


def test_no_import_circles_function_level_imports_included():
    graph = _module_graph()
    # A package's __init__ importing its own modules is how a package is built, not a circle.
    for name in graph:
        graph[name] = {t for t in graph[name] if not t.startswith(name + ".")}
    assert import_circles(graph) == []


def test_an_import_circle_is_found():
    assert import_circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert import_circles({"a": {"b"}, "b": set()}) == []


def test_no_folder_of_product_code_holds_more_than_20_modules():
    crowded = {}
    for package in PRODUCT:
        for folder in [ROOT / package, *(ROOT / package).rglob("*")]:
            if folder.is_dir() and "__pycache__" not in folder.parts:
                count = len([p for p in folder.glob("*.py") if p.name != "__init__.py"])
                if count > MAX_MODULES_SIDE_BY_SIDE:
                    crowded[str(folder.relative_to(ROOT))] = count
    assert crowded == {}
