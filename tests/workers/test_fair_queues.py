"""Bot turns of games with a person seated go ahead of all-bot (bulk) games: the queue is
chosen by seating, and workers serve the person queue first."""

from __future__ import annotations

import time

import pytest
from rq import SimpleWorker
from rq.serializers import JSONSerializer

from application import jobs
from store import keys

pytestmark = pytest.mark.redis

CARD = "keltis-card"
PERSON_VS_BOT = [{"name": "rob", "bot": "greedy"}, {"name": "ann"}]  # the bot moves first
ALL_BOTS = [{"name": "rob", "bot": "greedy"}, {"name": "rex", "bot": "random"}]


def test_a_bot_turn_goes_to_the_person_or_the_bulk_queue_by_seating(
    scheduling_service, empty_queues
):
    client = empty_queues
    person_game, _, _ = scheduling_service.create(CARD, PERSON_VS_BOT, {})
    bulk_game, _, _ = scheduling_service.create(CARD, ALL_BOTS, {})
    person_queue, bulk_queue = jobs.bot_queue(client, True), jobs.bot_queue(client, False)
    assert person_queue.name == keys.person_bot_queue_name()
    assert bulk_queue.name == keys.bulk_bot_queue_name()
    person_job = keys.bot_job_id(person_game.game_id, person_game.version)
    bulk_job = keys.bot_job_id(bulk_game.game_id, bulk_game.version)
    assert person_queue.job_ids == [person_job]
    assert bulk_queue.job_ids == [bulk_job]


def test_workers_serve_person_turns_then_bulk_turns_then_tournaments(redis_client):
    names = [queue.name for queue in jobs.queues(redis_client)]
    assert names == [
        keys.person_bot_queue_name(),
        keys.bulk_bot_queue_name(),
        keys.tournament_queue_name(),
    ]


def test_a_person_turn_queued_last_is_played_before_the_bulk_turns(
    scheduling_service, empty_queues
):
    client = empty_queues
    bulk = [scheduling_service.create(CARD, ALL_BOTS, {})[0] for _ in range(5)]
    person_game, _, _ = scheduling_service.create(CARD, PERSON_VS_BOT, {})
    worker = SimpleWorker(jobs.queues(client), connection=client, serializer=JSONSerializer)
    worker.work(burst=True, logging_level="ERROR", with_scheduler=False)
    ended = {
        r.game_id: jobs.fetch_job(client, keys.bot_job_id(r.game_id, r.version)).ended_at
        for r in [*bulk, person_game]
    }
    assert all(ended[person_game.game_id] < ended[r.game_id] for r in bulk)


def test_a_real_worker_answers_a_person_before_a_backlog_of_bot_games(
    scheduling_service, empty_queues, worker_process
):
    backlog = [scheduling_service.create(CARD, ALL_BOTS, {})[0] for _ in range(40)]
    person_game, _, _ = scheduling_service.create(CARD, PERSON_VS_BOT, {})
    store = scheduling_service.store
    deadline = time.monotonic() + 60
    while store.length(person_game.game_id) == person_game.version:
        assert time.monotonic() < deadline, "the person's bot never moved"
        time.sleep(0.01)
    unplayed = [r for r in backlog if store.length(r.game_id) == r.version]
    assert len(unplayed) >= 30, f"only {len(unplayed)} of 40 bot games still queued"
