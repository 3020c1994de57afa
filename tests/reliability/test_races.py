"""Races over HTTP and between bot jobs: one move per version, no gap, no duplicate."""

from __future__ import annotations

import redis

from devtools.reliability.race_proof import CLIENTS, run_bot_race, run_http_race


def test_64_clients_racing_moves_get_exactly_one_accept_per_version(web, redis_url):
    client = redis.Redis.from_url(redis_url)
    result = run_http_race(web.url, client, rounds=6)
    assert result.accepted_per_round == [1] * 6
    assert result.accepted_per_version == "1"
    # Losers: 409 with the current version, or the winner's own answer for a shared key.
    assert result.conflicts + result.replayed == 6 * (CLIENTS - 1)
    assert result.conflicts > 0


def test_two_bot_jobs_racing_count_every_turn_once(redis_url):
    result = run_bot_race(redis_url, games_per_kind=2)
    assert result.games == 4
    assert result.turns_in_logs == result.turns_claimed
    assert all(report.startswith("OK") for report in result.reports)
