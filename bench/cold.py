"""A command's cost against the game's length with a cold cache.

`api_cold_v150_over_v10`: the p50 of POST /moves on a game at version 150 over the p50 at
version 10, each the first request the server's processes ever see of that game (goal
<= 1.2: a cold load must not fold the whole log). The games are 2-player keltis-card games
of two people, played up to their version by this process, in-process on the same Redis
(its own GameService, never the server's), then moved once each over HTTP, one request at
a time, versions interleaved.
"""

from __future__ import annotations

import os
import random
import statistics
import time

import redis

from api.games import presenters
from application.games.service import GameService
from bench.api import Connection, served_stack
from devtools.long_games import live_card_game
from devtools.picks import lasting_pick

GAMES = int(os.environ.get("KELTIS_BENCH_COLD_GAMES", "80"))  # per version
VERSIONS = (10, 150)


def game_at(games: GameService, version: int, rng: random.Random) -> tuple[str, str, dict]:
    """(game id, token of the seat to move, a legal move of it) of a new live game played
    in-process up to `version` or just past it."""
    record, tokens = live_card_game(games, version, rng)
    seat = record.to_move
    return record.game_id, tokens[seat], lasting_pick(presenters.legal_moves(record, seat), rng)


def prepare(redis_url: str, seed: int = 7) -> dict[int, list[tuple[str, str, dict]]]:
    """GAMES live games at each of VERSIONS, made by this process."""
    games = GameService(redis.Redis.from_url(redis_url))
    rng = random.Random(seed)
    return {version: [game_at(games, version, rng) for _ in range(GAMES)] for version in VERSIONS}


def first_moves(base_url: str, made: dict[int, list]) -> dict[int, list[float]]:
    """Milliseconds of each game's first move over HTTP, versions interleaved."""
    http = Connection(base_url)
    latencies: dict[int, list[float]] = {version: [] for version in VERSIONS}
    for row in zip(*(made[version] for version in VERSIONS), strict=True):
        for version, (game_id, token, move) in zip(VERSIONS, row, strict=True):
            headers = {"Authorization": f"Bearer {token}"}
            started = time.perf_counter()
            status, _ = http.call("POST", f"/v1/games/{game_id}/moves", move, headers=headers)
            elapsed = (time.perf_counter() - started) * 1000
            if status != 200:
                raise RuntimeError(f"a cold move answered {status}")
            latencies[version].append(elapsed)
    return latencies


def run() -> None:
    """Prepare the games, move each once over HTTP, print the figures."""
    with served_stack() as stack:
        made = prepare(stack.redis_url)
        latencies = first_moves(stack.base_url, made)
    low, high = (statistics.median(latencies[version]) for version in VERSIONS)
    print(f"api_cold_games_per_version: {GAMES}")
    print(f"api_cold_v10_p50_ms: {low:.2f}")
    print(f"api_cold_v150_p50_ms: {high:.2f}")
    print(f"api_cold_v150_over_v10: {high / low:.2f}")


if __name__ == "__main__":
    run()
