"""A robust comparison of two code paths' timing (interleaved rounds, median of ratios), in
the CPU time of the calling thread: on a machine busy with other processes (the suite's
other workers) a round that was preempted counts only the time it ran, not the wait."""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable


def _round(function: Callable[[], object], calls: int) -> float:
    started = time.thread_time_ns()
    for _ in range(calls):
        function()
    return (time.thread_time_ns() - started) / calls


def timing_ratio(
    first: Callable[[], object], second: Callable[[], object], rounds: int = 41, calls: int = 300
) -> float:
    """Median over rounds of (time of `second` / time of `first`), the two interleaved (and
    their order swapped each round) so that noise from the machine hits both alike."""
    ratios = []
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for index in range(rounds):
            if index % 2:
                b, a = _round(second, calls), _round(first, calls)
            else:
                a, b = _round(first, calls), _round(second, calls)
            ratios.append(b / a)
    finally:
        if gc_was_enabled:
            gc.enable()
    return statistics.median(ratios)
