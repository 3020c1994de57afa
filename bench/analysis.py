"""Game analysis cost: CPU seconds to analyse one finished 2-player
keltis-card game at the default budget (application.bots.analysis.ITERATIONS determinizations
per decision), on one worker (one thread: the analysis job runs in one).

    ANALYSIS_BENCH_GAMES=1 python -m bench analysis

Figure: `analysis_s_per_game <mean CPU s> (games, decisions, iterations, wall s)`; the
games are greedy against greedy on fixed deals.
"""

from __future__ import annotations

import hashlib
import os
import statistics
import time

from application.bots.analysis import ITERATIONS, analyse_replay
from replays.build import build_replay
from replays.playlog import play_log

GAMES = int(os.environ.get("ANALYSIS_BENCH_GAMES", "1"))


def one(number: int) -> tuple[float, int, float]:
    """(CPU seconds, decisions judged, wall seconds) of analysing game `number`."""
    seed = hashlib.sha256(f"bench-analysis:{number}".encode()).digest()
    entries = play_log("keltis-card", ["greedy", "greedy"], seed, number)
    replay = build_replay(f"bench-analysis-{number:04d}", entries)
    began, wall = time.thread_time(), time.monotonic()
    result = analyse_replay(replay, ITERATIONS)
    return time.thread_time() - began, len(result["decisions"]), time.monotonic() - wall


def run() -> None:
    """Print the figure of the module docstring."""
    found = [one(n) for n in range(GAMES)]
    cpu = statistics.mean(f[0] for f in found)
    decisions = statistics.mean(f[1] for f in found)
    wall = statistics.mean(f[2] for f in found)
    print(
        f"analysis_s_per_game {cpu:.1f} ({GAMES} games of keltis-card 2p, greedy vs greedy, "
        f"{decisions:.0f} decisions each, {ITERATIONS} iterations a decision, "
        f"CPU s on one thread; wall {wall:.1f} s)",
        flush=True,
    )


if __name__ == "__main__":
    run()
