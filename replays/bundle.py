"""ES modules as one classic script, for the self-contained replay page (which loads no
file): each module becomes a function returning its exports, run once in import order, and
kept in `__modules[name]`. Only the module syntax the web client uses is understood:
`import {a, b as c} from "./x.js"`, `import * as x from "./x.js"`, `export function`,
`export const/let/class` and `export {a, b}`; anything else raises ValueError."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence

_IMPORT = re.compile(
    r'^import\s+(?:\{([^}]*)\}|\*\s+as\s+([\w$]+))\s+from\s+"(?:\./|/web/)([\w.-]+)";?[ \t]*$',
    re.M,
)
_DECLARED = re.compile(r"^export\s+((?:async\s+)?function\*?|const|let|class)\s+([\w$]+)", re.M)
_LISTED = re.compile(r"^export\s*\{([^}]*)\};?[ \t]*$", re.M)
_LEFT = re.compile(r"^\s*(?:import|export)\b", re.M)


def _names(listed: str) -> list[tuple[str, str]]:
    """`a, b as c` as [(a, a), (b, c)]."""
    pairs = []
    for part in filter(None, (p.strip() for p in listed.split(","))):
        name, _, alias = part.partition(" as ")
        pairs.append((name.strip(), (alias or name).strip()))
    return pairs


def _module(name: str, text: str) -> tuple[str, list[str]]:
    """The module as a function body, and the modules it imports."""
    needs: list[str] = []

    def imported(match: re.Match) -> str:
        listed, star, source = match.groups()
        needs.append(source)
        if star:
            return f"const {star} = __modules[{json.dumps(source)}];"
        fields = ", ".join(a if n == a else f"{n}: {a}" for n, a in _names(listed))
        return f"const {{{fields}}} = __modules[{json.dumps(source)}];"

    exports: list[tuple[str, str]] = []
    body = _IMPORT.sub(imported, text)

    def declared(match: re.Match) -> str:
        exports.append((match.group(2), match.group(2)))
        return match.group(1) + " " + match.group(2)

    body = _DECLARED.sub(declared, body)

    def listed(match: re.Match) -> str:
        exports.extend(_names(match.group(1)))
        return ""

    body = _LISTED.sub(listed, body)
    if _LEFT.search(body):
        raise ValueError(f"{name}: module syntax this bundler does not handle")
    fields = ", ".join(a if n == a else f"{a}: {n}" for n, a in exports)
    wrapped = (
        f"__modules[{json.dumps(name)}] = (function () {{\n{body}\nreturn {{{fields}}};\n}})();"
    )
    return wrapped, needs


def bundle(entries: str | Sequence[str], read: Callable[[str], str]) -> str:
    """The modules `entries` and everything they import (by `read(name)`), dependencies
    first, each once."""
    done: dict[str, str] = {}
    visiting: set[str] = set()

    def visit(name: str) -> None:
        if name in done:
            return
        if name in visiting:
            raise ValueError(f"{name}: an import cycle")
        visiting.add(name)
        wrapped, needs = _module(name, read(name))
        for need in needs:
            visit(need)
        done[name] = wrapped
        visiting.discard(name)

    for entry in [entries] if isinstance(entries, str) else entries:
        visit(entry)
    return "const __modules = {};\n" + "\n".join(done.values())
