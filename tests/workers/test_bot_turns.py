"""Bot turns: the RQ job, its de-duplication, the sweep, and a real worker process."""

from __future__ import annotations

import random
import re
import time

from rq.serializers import JSONSerializer

from application.operations import jobs as bot_jobs
from application.operations.jobs import bot_queue, enqueue_bot_turn
from application.operations.sweep import sweep_bot_turns as sweep
from domain.autoplay import bot_rng
from store import keys
from tests.api.helpers import bearer, play_against_bots
from tests.store import toy_game
from tests.support.killed_jobs import leave_as_a_killed_worker_does

CARD = "keltis-card"


def test_bot_job_plays_every_bot_turn_until_a_human_is_to_move(
    quiet_service, monkeypatch, redis_url
):
    toy = toy_game.register(monkeypatch)
    monkeypatch.setenv("REDIS_URL", redis_url)
    players = [{"name": "ann"}, {"name": "b1", "bot": "random"}, {"name": "b2", "bot": "first"}]
    record, tokens, _ = quiet_service.create(toy, players, {})
    quiet_service.play(record.game_id, tokens[0], {"action": "pass"}, lambda *a: {})
    version = quiet_service.store.length(record.game_id)
    assert bot_jobs.play_bot_turns(record.game_id, version) == 2
    after, _, _ = quiet_service.load(record.game_id)
    assert after.to_move == 0
    entries = quiet_service.entries_after(record.game_id, version, 100)
    assert {entry.by for entry in entries} == {1, 2}


def test_bot_job_does_nothing_when_someone_moved_first(quiet_service, monkeypatch, redis_url):
    toy = toy_game.register(monkeypatch)
    monkeypatch.setenv("REDIS_URL", redis_url)
    record, _, _ = quiet_service.create(toy, [{"name": "b0", "bot": "first"}, {"name": "h"}], {})
    stale = record.version - 1
    assert bot_jobs.play_bot_turns(record.game_id, stale) == 0
    assert quiet_service.store.length(record.game_id) == record.version


def test_bot_games_are_deterministic_per_game_and_version():
    first = bot_rng("ab" * 32, "game", 7).random()
    assert first == bot_rng("ab" * 32, "game", 7).random()
    assert first != bot_rng("ab" * 32, "game", 8).random()
    assert first != bot_rng("cd" * 32, "game", 7).random()


def test_a_repeated_enqueue_does_nothing(redis_client):
    game_id = "dedupgame" + str(random.getrandbits(40))
    assert enqueue_bot_turn(redis_client, game_id, 12, person=True) is True
    assert enqueue_bot_turn(redis_client, game_id, 12, person=True) is False
    queue = bot_queue(redis_client, person=True)
    job_id = keys.bot_job_id(game_id, 12)
    assert re.fullmatch(r"[A-Za-z0-9_-]+", job_id)
    assert queue.job_ids.count(job_id) == 1
    job = queue.fetch_job(job_id)
    assert job.args == [game_id, 12]
    assert job.serializer is JSONSerializer
    job.delete()


def test_the_sweep_re_enqueues_a_lost_bot_turn_once(quiet_service, redis_client):
    record, _, _ = quiet_service.create(CARD, [{"name": "b", "bot": "greedy"}, {"name": "h"}], {})
    queue = bot_queue(redis_client, person=True)
    job_id = keys.bot_job_id(record.game_id, record.version)
    assert job_id not in queue.job_ids  # nothing was enqueued: the turn is "lost"
    later = record.updated_at + 10_000
    assert record.game_id in sweep(redis_client, stale_after_s=5, now_ms=later)
    assert record.game_id not in sweep(redis_client, stale_after_s=5, now_ms=later)
    assert queue.job_ids.count(job_id) == 1
    queue.fetch_job(job_id).delete()
    redis_client.zrem(keys.bot_turns(), record.game_id)


def test_the_sweep_re_enqueues_a_bot_turn_whose_killed_workers_execution_expired(
    quiet_service, redis_client
):
    """A SIGKILLed worker's job stays started, its execution listed some 60 s after the
    execution's record expired; RQ's own delete raises on it, so the turn stayed lost."""
    record, _, _ = quiet_service.create(CARD, [{"name": "b", "bot": "greedy"}, {"name": "h"}], {})
    queue = bot_queue(redis_client, person=True)
    job_id = keys.bot_job_id(record.game_id, record.version)
    later = record.updated_at + 10_000
    assert record.game_id in sweep(redis_client, stale_after_s=5, now_ms=later)
    leave_as_a_killed_worker_does(redis_client, queue.fetch_job(job_id))
    assert record.game_id in sweep(redis_client, stale_after_s=5, now_ms=later)
    assert queue.job_ids.count(job_id) == 1
    assert queue.started_job_registry.get_job_ids() == []
    queue.fetch_job(job_id).delete()
    redis_client.zrem(keys.bot_turns(), record.game_id)


def test_the_sweep_queues_the_other_lost_bot_turns_when_one_cannot_be_queued(
    quiet_service, redis_client, monkeypatch
):
    players = [{"name": "b", "bot": "greedy"}, {"name": "h"}]
    first, _, _ = quiet_service.create(CARD, players, {})
    second, _, _ = quiet_service.create(CARD, players, {})
    queue_again = bot_jobs.enqueue_bot_turn

    def broken_for_first(client, game_id, *args, **kwargs):
        if game_id == first.game_id:
            raise ValueError("Execution 1 not found in Redis")
        return queue_again(client, game_id, *args, **kwargs)

    monkeypatch.setattr(bot_jobs, "enqueue_bot_turn", broken_for_first)
    later = max(first.updated_at, second.updated_at) + 10_000
    assert sweep(redis_client, stale_after_s=5, now_ms=later) == [second.game_id]
    queue = bot_queue(redis_client, person=True)
    queue.fetch_job(keys.bot_job_id(second.game_id, second.version)).delete()
    redis_client.zrem(keys.bot_turns(), first.game_id, second.game_id)


def test_a_human_against_two_bots_to_the_end_with_a_real_worker(client, worker_process):
    players = [{"name": "ann"}, {"name": "rob", "bot": "greedy"}, {"name": "rex", "bot": "random"}]
    created = client.post("/v1/games", json={"game": CARD, "players": players}).json
    rng = random.Random(3)

    def deck_first(moves: list[dict]) -> dict:
        deck = [m for m in moves if m.get("source") == "deck"]
        return deck[0] if deck else rng.choice(moves)

    game, elapsed = play_against_bots(client, created, deck_first, timeout_s=60)
    assert game["status"] == "finished", f"not finished after {elapsed:.1f}s"
    assert len(game["result"]["scores"]) == 3
    events = client.get(f"/v1/games/{created['id']}/events").json["events"]
    assert {e["by"] for e in events if "cmd" in e} == {0, 1, 2}
    assert elapsed < 30


def test_the_sweep_in_a_real_worker_recovers_a_lost_bot_turn(quiet_service, client, worker_process):
    record, tokens, _ = quiet_service.create(
        CARD, [{"name": "bot", "bot": "greedy"}, {"name": "h"}], {}
    )
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        game = client.get(f"/v1/games/{record.game_id}", headers=bearer(tokens[1])).json
        if game["to_move"] == 1:
            break
        time.sleep(0.1)
    assert game["to_move"] == 1
    assert game["version"] > record.version
