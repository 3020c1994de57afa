"""Bulk export: `export_games_per_s` streaming GAMES finished games' replays from a served
stack (GET /v1/games/export, one gunicorn worker), and the web worker's memory growth during
the export (goal: flat, under 50 MB). The games are made fast: built-in bots played out in
process and appended in one batch each (devtools.finished_games), by a pool of processes."""

from __future__ import annotations

import multiprocessing
import os
import threading
import time

import psutil
import requests

from bench.api import served_stack

GAMES = int(os.environ.get("KELTIS_BENCH_EXPORT_GAMES", "10000"))
MAKERS = max(1, min(4, os.cpu_count() or 1))  # processes making games
SAMPLE_S = 0.2  # how often the web worker's memory is read
MB = 1024 * 1024


def make_games(redis_url: str, count: int) -> int:
    """Finish `count` dice games of random bots on the Redis at `redis_url`."""
    import redis

    from application.games.service import GameService
    from devtools.finished_games import finish_bot_game

    games = GameService(redis.Redis.from_url(redis_url))
    for _ in range(count):
        finish_bot_game(games)
    return count


def make_all(redis_url: str, total: int) -> float:
    """Make `total` finished games with MAKERS processes; seconds taken."""
    started = time.perf_counter()
    shares = [total // MAKERS + (1 if i < total % MAKERS else 0) for i in range(MAKERS)]
    with multiprocessing.get_context("spawn").Pool(MAKERS) as pool:
        made = sum(pool.starmap(make_games, [(redis_url, share) for share in shares]))
    if made != total:
        raise RuntimeError(f"made {made} games, not {total}")
    return time.perf_counter() - started


class MemoryWatch:
    """Samples the resident memory of the web workers (gunicorn's children) in a thread."""

    def __init__(self, master_pid: int):
        self.master = psutil.Process(master_pid)
        self.samples: list[int] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def rss(self) -> int:
        return sum(child.memory_info().rss for child in self.master.children())

    def _run(self) -> None:
        while not self.stop.is_set():
            self.samples.append(self.rss())
            self.stop.wait(SAMPLE_S)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()
        self.samples.append(self.rss())


def export_all(base_url: str, **query) -> tuple[int, int, float]:
    """(replays, bytes, seconds) of one streamed export, lines read and dropped."""
    started = time.perf_counter()
    replays = size = 0
    with requests.get(
        f"{base_url}/v1/games/export", params=query, stream=True, timeout=(10, 600)
    ) as response:
        response.raise_for_status()
        for line in response.iter_lines(chunk_size=256 * 1024):
            size += len(line) + 1
            if line.startswith(b'{"cursor"'):
                replays += 1
    return replays, size, time.perf_counter() - started


def run() -> None:
    """Make GAMES finished games, warm the web worker up, then time one whole export."""
    with served_stack(bot_workers=0, web_workers=1) as stack:
        made_s = make_all(stack.redis_url, GAMES)
        export_all(stack.base_url, limit=200)  # warm up: imports, pools, caches
        gunicorn = stack.processes[-1].pid
        with MemoryWatch(gunicorn) as watch:
            before = watch.rss()
            replays, size, seconds = export_all(stack.base_url)
    if replays != GAMES:
        raise RuntimeError(f"exported {replays} replays of {GAMES} games")
    growth = (max(watch.samples) - before) / MB
    print(f"export_games: {replays}")
    print(f"export_games_made_per_s: {GAMES / made_s:.0f}")
    print(f"export_games_per_s: {replays / seconds:.0f}")
    print(f"export_mb_per_s: {size / MB / seconds:.1f}")
    print(f"export_server_rss_before_mb: {before / MB:.1f}")
    print(f"export_server_rss_growth_mb: {growth:.1f}")
    print(f"export_server_rss_samples: {len(watch.samples)}")


if __name__ == "__main__":
    run()
