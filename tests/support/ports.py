"""Loopback ports for the servers the tests start: one disjoint range per xdist worker.

`cli.serve.free_port` asks the kernel for an ephemeral port, which another xdist worker (or
an outgoing connection) may be handed too before the server binds it; with gunicorn's
SO_REUSEPORT two test stacks would then share one port silently. Here each worker counts
through a range of its own, below the kernel's ephemeral range.
"""

from __future__ import annotations

import itertools
import os

from devtools.ports import NoFreePort, is_port_free

_BASE = 12000  # up to _SLOTS ranges of _SPAN ports each, all below 20000 (devtools.ports)
_SPAN = 500
_SLOTS = 16
_next = itertools.count()


def _worker_slot() -> int:
    """This xdist worker's number (gw3 -> 3), 0 outside xdist."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    digits = name.removeprefix("gw")
    return int(digits) % _SLOTS if digits.isdigit() else 0


def free_port() -> int:
    """A loopback port free now, from this worker's own range, not handed out before in this
    run (a stopped server's port may still be in TIME_WAIT)."""
    start = _BASE + _worker_slot() * _SPAN
    for _ in range(_SPAN):
        port = start + next(_next) % _SPAN
        if is_port_free(port):
            return port
    raise NoFreePort(f"no free port in {start}..{start + _SPAN - 1}")
