"""A job that holds its worker until a Redis key appears (importable by a worker process
started with the repository on PYTHONPATH)."""

from __future__ import annotations

import time

from rq import get_current_job


def hold_until(key: str, timeout_s: float) -> bool:
    """Job: wait until `key` exists on the job's Redis (True) or `timeout_s` passed."""
    client = get_current_job().connection
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if client.exists(key):
            return True
        time.sleep(0.02)
    return False
