"""When a search stops: after a fixed number of iterations, or after a CPU-time budget.

The clock is the only impure thing of a search, and it lives here: `CpuBudget` reads the
thread's CPU time (`time.thread_time`, injectable), so a search on a busy machine gets the
same compute as on an idle one. `IterationBudget` reads no clock: with the same rng it makes
the same move on any machine (benchmarks and tests fix it with `mcts:i<N>`).
"""

from __future__ import annotations

import time
from collections.abc import Callable


class IterationBudget:
    """Exactly `iterations` iterations (at least one)."""

    def __init__(self, iterations: int):
        self.iterations = max(1, iterations)

    def start(self) -> Callable[[int], bool]:
        """A test `more(done)`: whether to run another iteration after `done` of them."""
        limit = self.iterations
        return lambda done: done < limit


class CpuBudget:
    """As many iterations as fit in `ms` milliseconds of CPU time of the calling thread.

    Stops when the next iteration would probably overrun (the mean iteration so far), so a
    move takes at most about `ms`; at least one iteration always runs.
    """

    def __init__(self, ms: float, clock: Callable[[], float] = time.thread_time):
        self.ms = ms
        self.clock = clock

    def start(self) -> Callable[[int], bool]:
        clock = self.clock
        begin = clock()
        deadline = begin + self.ms / 1000.0

        def more(done: int) -> bool:
            if done == 0:
                return True
            now = clock()
            return now + (now - begin) / done < deadline

        return more


class MatchBudget:
    """The default search's budget: `ms` of CPU time per move, or the longer cap a match
    has in `caps` ((game, players) -> ms). A search stops as soon as its move is settled
    (domain.search.ismcts), so a match whose moves mostly settle early can give an open
    move more time and still spend about `ms` a move on average."""

    def __init__(self, ms: float, caps: dict[tuple[str, int], float]):
        self.ms = ms
        self.caps = caps

    def for_view(self, view: dict) -> CpuBudget:
        """The CPU budget of a move of this view's match."""
        return CpuBudget(self.caps.get((view["game"], view["players"]), self.ms))
