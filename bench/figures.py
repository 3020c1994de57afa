"""The one way a benchmark prints a figure: a `name: value` line (with `  # note` when it
says how the figure was measured), flushed at once so a long run shows its progress."""

from __future__ import annotations


def figure(name: str, value, note: str = "") -> None:
    """Print `name: value`, or `name: value  # note`."""
    print(f"{name}: {value}" + (f"  # {note}" if note else ""), flush=True)
