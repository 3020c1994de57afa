"""Stalled games: a bot that raises 3 times at one version stalls its game (shown, listed,
not retried); a game with a clock has the fallback move played instead."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from application.games.service import GameService
from application.games.stalls import stall_of
from application.operations import jobs as bot_jobs
from application.operations.sweep import sweep_bot_turns as sweep
from cli.main import cli
from store import keys
from store.games.stalls import STALL_AFTER
from tests.store import toy_game


class BotCrashed(RuntimeError):
    pass


def broken_bot(view, moves, rng):
    raise BotCrashed(f"secret hand {view}")


@pytest.fixture
def toy(monkeypatch, redis_url):
    name = toy_game.register(monkeypatch)
    monkeypatch.setitem(toy_game.RULES.bots, "broken", broken_bot)
    monkeypatch.setenv("REDIS_URL", redis_url)
    return name


def bot_to_move(service, toy, clock=None):
    players = [{"name": "ann"}, {"name": "bob", "bot": "broken"}]
    record, tokens, _ = service.create(toy, players, {}, clock=clock)
    service.play(record.game_id, tokens[0], {"action": "pass"}, lambda *a: {})
    record, _, _ = service.load(record.game_id)
    assert record.to_move == 1
    return record, tokens


def fail_bot_turns(record, times):
    for _ in range(times):
        with pytest.raises(BotCrashed):
            bot_jobs.play_bot_turns(record.game_id, record.version)


def test_a_bot_failing_three_times_at_one_version_stalls_its_game(toy, client, redis_client):
    service = GameService(redis_client)
    record, _ = bot_to_move(service, toy)
    fail_bot_turns(record, STALL_AFTER - 1)
    assert "stalled" not in client.get(f"/v1/games/{record.game_id}").json
    fail_bot_turns(record, 1)
    game = client.get(f"/v1/games/{record.game_id}").json
    assert game["version"] == record.version
    assert set(game["stalled"]) == {"since", "reason"}
    assert "BotCrashed" in game["stalled"]["reason"]
    assert "secret" not in game["stalled"]["reason"]  # the error's message is never shown


def test_the_sweep_no_longer_retries_a_stalled_game(toy, redis_client):
    service = GameService(redis_client)
    record, _ = bot_to_move(service, toy)
    later = record.updated_at + 60_000
    assert record.game_id in sweep(redis_client, stale_after_s=5, now_ms=later)
    redis_client.delete(f"rq:job:{keys.bot_job_id(record.game_id, record.version)}")
    fail_bot_turns(record, STALL_AFTER)
    assert record.game_id not in sweep(redis_client, stale_after_s=5, now_ms=later)


def test_keltis_games_stalled_lists_them_for_an_operator(toy, redis_client, redis_url):
    service = GameService(redis_client)
    record, _ = bot_to_move(service, toy)
    fail_bot_turns(record, STALL_AFTER)
    result = CliRunner().invoke(cli, ["games", "--stalled", "--redis-url", redis_url])
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if record.game_id in line)
    assert f"v{record.version}" in line and "BotCrashed" in line


def test_a_clock_plays_the_fallback_move_for_a_stalled_bot(toy, redis_client):
    service = GameService(redis_client)
    clock = {"move_seconds": 60, "bank_seconds": 0, "fallback": "first", "max_timeouts": 5}
    record, _ = bot_to_move(service, toy, clock)
    fail_bot_turns(record, STALL_AFTER)
    entries = service.entries_after(record.game_id, record.version, 10)
    timed_out = entries[0].event
    assert (timed_out["type"], timed_out["reason"], timed_out["seat"]) == (
        "turn_timed_out",
        "bot_failed",
        1,
    )
    assert entries[1].by == 1  # the fallback bot's move in the stalled bot's place
    after, _, _ = service.load(record.game_id)
    assert after.version > record.version
    assert stall_of(service, after) is None
