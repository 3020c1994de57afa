"""Is a process id still a live (non-zombie) process? For the harness's orphan tests."""

from __future__ import annotations

import time
from pathlib import Path


def process_alive(pid: int) -> bool:
    """True if `pid` exists and is not a zombie (Linux /proc)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    state = stat.rsplit(")", 1)[1].split()[0]
    return state not in ("Z", "X")


def wait_until_dead(pid: int, timeout: float = 5.0) -> bool:
    """Poll until `pid` is gone; True if it went within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not process_alive(pid):
            return True
        time.sleep(0.02)
    return not process_alive(pid)
