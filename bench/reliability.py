"""Reliability figures from real runs (the proofs of tests/reliability, at bench sizes).

Prints `name: value` lines: races over HTTP (gunicorn, 64 clients) and between two bot
jobs, SIGKILLed bot workers, a SIGKILLed Redis (AOF, appendfsync always) under a stream
of moves, schemathesis fuzzing of the API, and the R2 scan of 500 games of each game.
Run: `.venv/bin/python -m bench reliability` (from the repository root).
"""

from __future__ import annotations

import time

from bench.figures import figure
from devtools.redis_servers import RedisServer
from devtools.reliability.fault_proof import (
    run_redis_kills,
    run_tournament_kills,
    run_worker_kills,
)
from devtools.reliability.leak_scan import scan_games_parallel
from devtools.reliability.race_proof import CLIENTS, run_bot_race, run_http_race
from devtools.reliability.web import WebServer

RACE_ROUNDS = 10
FUZZ_EXAMPLES_PER_OPERATION = 120
LEAK_GAMES = 500


def races() -> None:
    with RedisServer() as server, WebServer({"REDIS_URL": server.url}) as web:
        result = run_http_race(web.url, server.client(), rounds=RACE_ROUNDS)
        figure("race_clients", CLIENTS)
        figure("race_rounds", len(result.accepted_per_round))
        figure("race_accepted_per_version", result.accepted_per_version)
        figure("race_losers_409", result.conflicts)
        figure("race_idempotent_replays", result.replayed)
        bots = run_bot_race(server.url)
        figure("bot_race_games_verified", f"{len(bots.reports)}/{bots.games}")
        figure("bot_race_turns_counted_twice", bots.turns_claimed - bots.turns_in_logs)


def worker_kills() -> None:
    with RedisServer() as server:
        result = run_worker_kills(server.url, games_per_kind=4, kills=2)
    figure("worker_sigkills", result.kills)
    figure("worker_kill_games_verified", f"{len(result.reports)}/{result.games}")
    with RedisServer() as server:
        tournament = run_tournament_kills(server.url, games=24, kills=2)
    figure("tournament_worker_sigkills", tournament.kills)
    figure("tournament_games_verified", f"{tournament.verified}/{tournament.games}")
    figure("tournament_games_counted_twice", tournament.standings_games // 2 - tournament.games)
    figure("tournament_standings_match_logs", tournament.standings_match_logs)


def redis_kills() -> None:
    with (
        RedisServer(appendonly=True, appendfsync="always") as server,
        WebServer({"REDIS_URL": server.url}) as web,
    ):
        result = run_redis_kills(server, web.url, kills=3, moves_between=40)
    figure("redis_sigkills", result.kills)
    figure("acked_moves", result.acked)
    figure("acked_moves_lost_after_redis_kill", result.lost)
    figure("answers_503_while_down", result.statuses.get(503, 0))
    figure("answers_500", result.statuses.get(500, 0))


def fuzz() -> None:
    from api import create_app
    from devtools.reliability.fuzz_api import fuzz_app

    with RedisServer() as server:
        app = create_app(
            {
                "REDIS_URL": server.url,
                "TESTING": True,
                "MAX_EVENTS_WAIT_S": 0.01,
                "STREAM_MAX_S": 0.2,  # a stream of the live game would hold an hour
                "RATELIMIT_ENABLED": False,
                "QUOTAS_ENABLED": False,
            }
        )
        report = fuzz_app(app, FUZZ_EXAMPLES_PER_OPERATION)
    figure("fuzz_requests", report.requests)
    figure("fuzz_5xx", report.server_errors)
    figure("fuzz_contract_failures", len(report.failures))


def leaks() -> None:
    found, games, responses = 0, 0, 0
    for game in ("keltis-card", "keltis-dice"):
        report = scan_games_parallel(game, LEAK_GAMES)
        found += len(report.leaks)
        games += report.games
        responses += report.responses
        figure(f"leak_scan_games_{game.split('-')[1]}", report.games)
    figure("leak_scan_responses", responses)
    figure("leaks_found", found)


def run() -> None:
    """Print every reliability figure, measured now."""
    started = time.perf_counter()
    for step in (races, worker_kills, redis_kills, fuzz, leaks):
        step()
    figure("reliability_bench_seconds", f"{time.perf_counter() - started:.0f}")


if __name__ == "__main__":
    run()
