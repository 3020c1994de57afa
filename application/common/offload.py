"""CPU-heavy work off the web process's event loop: a small pool of native threads.

Under gunicorn's gevent workers `threading` is patched into greenlets, so a plain
ThreadPoolExecutor would run the work on the event loop and hold every other request of the
process; gevent's own ThreadPool runs it on native threads while the calling greenlet waits
cooperatively. Elsewhere (tests, the CLI, workers) a ThreadPoolExecutor does the same job.

The work must be pure computation: no Redis, no sockets (a gevent socket belongs to the
thread of its event loop). Read what it needs first, write what it made afterwards.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import settings

# While a native thread computes, the event loop's thread waits for the GIL after each of its
# own system calls, up to this long each time (CPython's default is 5 ms: a /healthz of a
# dozen calls could wait 60 ms behind one build).
SWITCH_INTERVAL_S = 0.0005

T = TypeVar("T")

_lock = threading.Lock()
_pool = None
_pool_pid: int | None = None


def threads() -> int:
    """Native threads per process: KELTIS_BUILD_THREADS (1 to 8; default 1, as builds are
    rare and the event loop comes first)."""
    return settings.current().build_threads


def _patched() -> bool:
    """Whether gevent has patched this process's threads (a gunicorn gevent worker)."""
    if "gevent.monkey" not in sys.modules:
        return False
    from gevent import monkey

    return monkey.is_module_patched("threading")


def _new_pool():
    if _patched():
        from gevent.threadpool import ThreadPool

        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL_S))
        pool = ThreadPool(threads())
        return lambda fn, args: pool.apply(fn, args)
    executor = ThreadPoolExecutor(threads(), thread_name_prefix="keltis-build")
    return lambda fn, args: executor.submit(fn, *args).result()


def run(fn: Callable[..., T], *args) -> T:
    """`fn(*args)` on one of the process's build threads; its value or its exception. The
    caller waits (cooperatively under gevent); at most `threads()` run at once."""
    global _pool, _pool_pid
    pid = os.getpid()
    if _pool is None or _pool_pid != pid:  # a forked worker makes its own
        with _lock:
            if _pool is None or _pool_pid != pid:
                _pool, _pool_pid = _new_pool(), pid
    return _pool(fn, args)
