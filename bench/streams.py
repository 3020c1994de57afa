"""Live-stream benchmark: from a move's acknowledgement to its line on a held stream.

Starts the served stack (bench.api.served_stack), creates STREAMS two-player games, holds one
`GET /v1/games/{id}/stream` open per game from one asyncio client (STREAMS connections at
once), then plays MOVES moves in a few of the games. For each move, the time from the POST
/moves answer to the line of that version on the game's stream is one sample (a line that
arrives before the answer counts as 0). Prints notify_p50_ms and notify_p99_ms (goals <= 5 and
<= 50).
"""

from __future__ import annotations

import os
import re
import statistics
import threading
import time

from bench.api import Connection, served_stack
from bench.loadgen import HeldStreams, hold_streams

STREAMS = 500
ACTIVE_GAMES = 4
MOVES = 200
CONNECTIONS = 400  # per gunicorn process (2): room for every stream and the movers
VERSION = re.compile(rb'"version":(\d+)')


class Arrivals:
    """When each (game, version) line reached the client."""

    def __init__(self):
        self.at: dict[tuple[str, int], float] = {}
        self.lock = threading.Lock()
        self.open = 0  # streams open, for holders that count here (bench.challenges)

    def seen(self, game_id: str, version: int) -> None:
        with self.lock:
            self.at.setdefault((game_id, version), time.perf_counter())

    def wait_for(self, game_id: str, version: int, timeout_s: float = 10.0) -> float | None:
        ends = time.monotonic() + timeout_s
        while time.monotonic() < ends:
            with self.lock:
                found = self.at.get((game_id, version))
            if found is not None:
                return found
            time.sleep(0.0002)
        return None


def _streams_thread(base_url: str, games: list[tuple[str, int]], arrivals: Arrivals) -> HeldStreams:
    def seen_in(game_id: str):
        return lambda match: arrivals.seen(game_id, int(match.group(1)))

    streams = [(f"/v1/games/{g}/stream?after={v}", {}, seen_in(g)) for g, v in games]
    return hold_streams(base_url, streams, VERSION, 64)


def measure(base_url: str) -> dict:
    http = Connection(base_url)
    games = []
    for _ in range(STREAMS):
        players = [{"name": "ann"}, {"name": "bea"}]
        _, created = http.call("POST", "/v1/games", {"game": "keltis-card", "players": players})
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        games.append((created["id"], created["version"], tokens))
    arrivals = Arrivals()
    held = _streams_thread(base_url, [(g, v) for g, v, _ in games], arrivals)
    while held.open < STREAMS:
        time.sleep(0.1)
    time.sleep(1.0)  # every stream has caught up and waits
    samples = []
    lost = 0
    for count in range(MOVES):
        game_id, _, tokens = games[count % ACTIVE_GAMES]
        _, state = http.call("GET", f"/v1/games/{game_id}")
        if state["status"] == "finished":
            continue
        auth = {"Authorization": f"Bearer {tokens[state['to_move']]}"}
        _, legal = http.call("GET", f"/v1/games/{game_id}/moves", headers=auth)
        status, answer = http.call(
            "POST", f"/v1/games/{game_id}/moves", legal["moves"][0], headers=auth
        )
        acknowledged = time.perf_counter()
        if status != 200:
            continue
        arrived = arrivals.wait_for(game_id, answer["version"])
        if arrived is None:
            lost += 1
            continue
        samples.append(max(0.0, arrived - acknowledged) * 1000)
    held.stop()
    samples.sort()
    return {
        "p50": statistics.median(samples),
        "p99": samples[max(0, int(len(samples) * 0.99) - 1)],
        "samples": len(samples),
        "lost": lost,
        "open": held.open,
    }


def run() -> None:
    # Every stream is held by one client: room for all of them in each process's share.
    os.environ.setdefault("KELTIS_STREAMS_PER_PROCESS", str(CONNECTIONS - 50))
    with served_stack(connections=CONNECTIONS) as stack:
        figures = measure(stack.base_url)
    print(f"notify_streams_open: {figures['open']}")
    print(f"notify_p50_ms: {figures['p50']:.2f}")
    print(f"notify_p99_ms: {figures['p99']:.2f}")
    print(f"notify_samples: {figures['samples']}")
    print(f"notify_lines_missing: {figures['lost']}")


if __name__ == "__main__":
    run()
