"""Fixtures of the worker tests: a real `keltis worker` process on the test Redis."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def worker_process(redis_url):
    """A real RQ worker (with a fast sweep), killed at teardown."""
    env = {**os.environ, "REDIS_URL": redis_url}
    process = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "keltis"),
            "worker",
            "--sweep-every",
            "0.3",
            "--stale-after",
            "0.5",
        ],
        cwd=ROOT,
        env=env,
    )
    yield process
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
