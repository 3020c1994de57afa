"""Make sure every server process a test starts dies with the test run.

Three layers: the owner's own teardown (context manager / fixture), an atexit hook that
SIGKILLs whatever is still registered, and on Linux PR_SET_PDEATHSIG so the kernel kills the
child if the Python process itself dies without running atexit (SIGKILL, crash).
"""

from __future__ import annotations

import atexit
import ctypes
import signal
import subprocess
import sys
import threading

_PR_SET_PDEATHSIG = 1
_live: set[subprocess.Popen] = set()
_lock = threading.Lock()
_atexit_registered = False


def die_with_parent() -> None:
    """`preexec_fn` for Popen: the child gets SIGKILL when the parent goes away (Linux only).

    Caveat of the kernel feature: "parent" is the thread that forked, so start servers from
    a thread that outlives them (the main thread, as pytest fixtures do).
    """
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def register(process: subprocess.Popen) -> None:
    """Track a live process so that interpreter exit kills it."""
    global _atexit_registered
    with _lock:
        _live.add(process)
        if not _atexit_registered:
            atexit.register(reap_all)
            _atexit_registered = True


def unregister(process: subprocess.Popen) -> None:
    """Stop tracking a process its owner has ended."""
    with _lock:
        _live.discard(process)


def kill_and_wait(process: subprocess.Popen, timeout: float = 10.0) -> None:
    """SIGKILL a process (if still running) and reap it."""
    if process.poll() is None:
        process.kill()
    process.wait(timeout=timeout)


def reap_all() -> int:
    """SIGKILL and reap every registered process; returns how many were still running."""
    with _lock:
        processes = list(_live)
        _live.clear()
    running = 0
    for process in processes:
        if process.poll() is None:
            running += 1
        kill_and_wait(process)
    return running


def live_count() -> int:
    """How many registered processes are still running."""
    with _lock:
        return sum(1 for process in _live if process.poll() is None)
