"""CPU time and resident memory of process trees, read from /proc (Linux): what a
benchmark's started processes and their children cost, apart from its own load generator."""

from __future__ import annotations

import os
from pathlib import Path

PROC = Path("/proc")
# Fields of /proc/<pid>/stat after the command's closing parenthesis (proc(5) numbers minus 3).
PPID, UTIME, STIME, CUTIME, CSTIME, RSS = 1, 11, 12, 13, 14, 21


def stat_fields(pid: int) -> list[str] | None:
    """/proc/<pid>/stat split after the command name (which may hold spaces or parentheses);
    None once the process is gone."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()


def descendants(pid: int) -> list[int]:
    """Every live process below `pid` (children, their children...), from one scan of /proc."""
    below: dict[int, list[int]] = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit() and (fields := stat_fields(int(entry.name))) is not None:
            below.setdefault(int(fields[PPID]), []).append(int(entry.name))
    found, frontier = [], [pid]
    while frontier:
        children = below.get(frontier.pop(), [])
        found.extend(children)
        frontier.extend(children)
    return found


def tree_cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds of `pids` and their live descendants, each with its reaped
    children's (cutime, cstime): a child that exits between two readings moves from its own
    count into its parent's, so a difference of two readings counts it once."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in {p for root in pids for p in (root, *descendants(root))}:
        fields = stat_fields(pid)
        if fields is not None:
            total += sum(int(fields[index]) for index in (UTIME, STIME, CUTIME, CSTIME))
    return total / ticks


def tree_rss_bytes(pids: list[int]) -> int:
    """Resident bytes of `pids` and their live descendants (pages a fork shares with its
    parent count in each: an upper bound of what they hold together)."""
    page = os.sysconf("SC_PAGE_SIZE")
    total = 0
    for pid in {p for root in pids for p in (root, *descendants(root))}:
        fields = stat_fields(pid)
        if fields is not None:
            total += int(fields[RSS]) * page
    return total
