"""Faults: a bot worker SIGKILLed mid-game; the Redis server SIGKILLed mid-stream."""

from __future__ import annotations

from api.games.presenters import move_result
from application.games.service import GameService
from devtools.reliability.fault_proof import run_redis_kills, run_tournament_kills, run_worker_kills
from devtools.reliability.logcheck import check_log
from devtools.reliability.web import WebServer
from store import keys
from tests.support.ports import free_port  # this worker's own range


def test_games_survive_sigkilled_bot_workers(redis_server_factory):
    server = redis_server_factory()
    result = run_worker_kills(server.url, games_per_kind=3, kills=2)
    assert result.kills >= 1
    assert len(result.reports) == result.games == 6
    assert all(report.startswith("OK") for report in result.reports)


def test_acked_moves_survive_redis_sigkill_with_fsync_always(aof_redis):
    with WebServer(
        {"REDIS_URL": aof_redis.url, "KELTIS_RATE_LIMIT": "1000 per second"}, port=free_port()
    ) as web:
        result = run_redis_kills(aof_redis, web.url, kills=2, moves_between=40)
    assert result.lost == 0
    assert result.acked >= 120
    assert result.statuses.get(503, 0) > 0  # the outage was seen, as clean 503s
    assert 500 not in result.statuses


def test_tournament_games_survive_sigkilled_workers_counted_once(redis_server_factory):
    server = redis_server_factory()
    result = run_tournament_kills(server.url, games=16, kills=2)
    assert result.kills == 2
    assert result.verified == result.games == 16
    assert result.standings_games == 2 * result.games  # two seats per game, each once
    assert result.standings_match_logs


def test_a_log_that_lost_its_tail_is_reloaded_not_stuck(redis_client):
    """With appendfsync everysec a Redis crash may lose the last appends; a process whose
    cache is ahead of the log must re-read it (not show the lost moves, nor 409 forever)."""
    service = GameService(redis_client)
    record, tokens, _ = service.create("keltis-card", [{"name": "ann"}, {"name": "bea"}], {})
    game_id, before_loss = record.game_id, record.version
    move = dict(record.rules.legal_moves(record.state, 0)[0])
    assert service.play(game_id, tokens[0], move, move_result).status == 200
    while redis_client.llen(keys.log(game_id)) > before_loss:  # what a crash loses
        redis_client.rpop(keys.log(game_id))
    reloaded, _, _ = service.load(game_id)
    assert reloaded.version == before_loss
    answer = service.play(game_id, tokens[0], move, move_result)
    assert answer.status == 200
    checked = check_log(redis_client, game_id)
    assert checked.record.version == answer.body["version"]
