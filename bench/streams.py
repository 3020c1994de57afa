"""Live-stream benchmark: from a move's acknowledgement to its line on a held stream.

Starts the served stack (bench.api.served_stack), creates STREAMS two-player games, holds one
`GET /v1/games/{id}/stream` open per game from one asyncio client (STREAMS connections at
once), then plays MOVES moves in a few of the games. For each move, the time from the POST
/moves answer to the line of that version on the game's stream is one sample (a line that
arrives before the answer counts as 0). Prints notify_p50_ms and notify_p99_ms (goals <= 5 and
<= 50).
"""

from __future__ import annotations

import asyncio
import os
import re
import statistics
import threading
import time
from urllib.parse import urlsplit

from bench.api import Connection, served_stack

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
        self.open = 0

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


async def _hold(host: str, port: int, game_id: str, after: int, arrivals: Arrivals, stop):
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(
        f"GET /v1/games/{game_id}/stream?after={after} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()
    )
    await writer.drain()
    arrivals.open += 1
    buffer = b""
    try:
        while not stop.is_set():
            chunk = await reader.read(65536)
            if not chunk:
                return
            buffer += chunk
            for match in VERSION.finditer(buffer):
                arrivals.seen(game_id, int(match.group(1)))
            buffer = buffer[-64:]
    finally:
        writer.close()


def _streams_thread(base_url: str, games: list[tuple[str, int]], arrivals: Arrivals):
    parts = urlsplit(base_url)
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()

    async def main():
        tasks = [
            asyncio.create_task(_hold(parts.hostname, parts.port, g, v, arrivals, stop))
            for g, v in games
        ]
        await asyncio.gather(*tasks, return_exceptions=True)

    thread = threading.Thread(target=loop.run_until_complete, args=(main(),), daemon=True)
    thread.start()
    return lambda: loop.call_soon_threadsafe(stop.set)


def measure(base_url: str) -> dict:
    http = Connection(base_url)
    games = []
    for _ in range(STREAMS):
        players = [{"name": "ann"}, {"name": "bea"}]
        _, created = http.call("POST", "/v1/games", {"game": "keltis-card", "players": players})
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        games.append((created["id"], created["version"], tokens))
    arrivals = Arrivals()
    stop = _streams_thread(base_url, [(g, v) for g, v, _ in games], arrivals)
    while arrivals.open < STREAMS:
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
    stop()
    samples.sort()
    return {
        "p50": statistics.median(samples),
        "p99": samples[max(0, int(len(samples) * 0.99) - 1)],
        "samples": len(samples),
        "lost": lost,
        "open": arrivals.open,
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
