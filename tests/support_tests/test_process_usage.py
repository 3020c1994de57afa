"""devtools.process_usage: the CPU of a process tree counts a live child's time and a
reaped child's (in its parent's cutime) alike."""

from __future__ import annotations

import subprocess
import sys

from devtools.process_usage import descendants, tree_cpu_seconds, tree_rss_bytes

BURN_S = 0.2
# A child that spends BURN_S of CPU, says so, then waits on its stdin (a live child).
BURNER = f"""
import sys, time
while time.process_time() < {BURN_S}:
    pass
print("burned", flush=True)
sys.stdin.readline()
"""
# A parent that runs the burner, which shares its stdin, and waits for it (a live child).
LAUNCHER = f"""
import subprocess, sys
subprocess.run([sys.executable, "-c", {BURNER!r}])
"""
# A parent that runs the burner to its end (a reaped child), says so, then waits too.
PARENT = f"""
import subprocess, sys
subprocess.run([sys.executable, "-c", {BURNER!r}], input="\\n", text=True, capture_output=True)
print("reaped", flush=True)
sys.stdin.readline()
"""


def _started(code: str, line: str) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    if process.stdout.readline().strip() != line:
        raise RuntimeError(f"the child did not say {line!r}")
    return process


def _stopped(process: subprocess.Popen) -> None:
    process.stdin.write("\n")
    process.stdin.close()
    process.wait(timeout=10)
    process.stdout.close()


def test_a_live_childs_cpu_counts_under_its_parent():
    shell = _started(LAUNCHER, "burned")
    try:
        assert len(descendants(shell.pid)) == 1
        assert tree_cpu_seconds([shell.pid]) >= BURN_S
        assert tree_rss_bytes([shell.pid]) > 0
    finally:
        _stopped(shell)


def test_a_reaped_childs_cpu_counts_in_its_parents_children_time():
    parent = _started(PARENT, "reaped")
    try:
        assert descendants(parent.pid) == []
        assert tree_cpu_seconds([parent.pid]) >= BURN_S
    finally:
        _stopped(parent)


def test_a_process_gone_counts_nothing():
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait(timeout=10)
    assert tree_cpu_seconds([process.pid]) == 0
    assert tree_rss_bytes([process.pid]) == 0
