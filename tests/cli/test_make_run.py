"""`make run PORT=8001` serves on that port: the Makefile passes
`--port $(PORT)` to `keltis serve`, 8000 unless given. Checked with `make -n` (what make
would run), so no server starts in the checkout's var/."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

CHECKOUT = Path(__file__).resolve().parents[2]


def _run_command(*assignments: str) -> str:
    if shutil.which("make") is None:
        pytest.skip("make is not installed: apt-get install -y make")
    done = subprocess.run(
        ["make", "-n", "-C", str(CHECKOUT), "run", *assignments],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    (serve,) = [line for line in done.stdout.splitlines() if "keltis serve" in line]
    return serve


def test_make_run_passes_the_port_variable_to_serve():
    assert _run_command("PORT=8001").endswith("keltis serve --port 8001")


def test_make_run_serves_on_8000_by_default():
    assert _run_command().endswith("keltis serve --port 8000")


def test_make_run_passes_connections_to_serve_only_when_given():
    assert _run_command("CONNECTIONS=6000").endswith("keltis serve --port 8000 --connections 6000")
