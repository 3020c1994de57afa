"""`python -m bench`: run every benchmark module in turn and print its figures."""

from __future__ import annotations

import importlib
import sys

# Each module has a `run()` that prints `name: value` lines.
MODULES = ["bench.card", "bench.dice", "bench.api", "bench.tournament", "bench.reliability"]


def main(argv: list[str]) -> int:
    """Run the named benchmark modules (all by default)."""
    selected = [m for m in MODULES if not argv or m.split(".")[-1] in argv]
    for name in selected:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError:
            print(f"# {name}: not built yet", flush=True)
            continue
        print(f"# {name}", flush=True)
        module.run()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
