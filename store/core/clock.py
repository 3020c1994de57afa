"""The service's wall clock, in milliseconds since the epoch (log entries, leases)."""

from __future__ import annotations

import time


def now_ms() -> int:
    """The current time in ms."""
    return int(time.time() * 1000)
