"""A person's bot turn never waits behind bulk work: beside its main RQ
worker, `keltis worker` runs an interactive lane that serves only the bot turns of games
with a person seated, so a bulk job in hand (a tournament's `mcts:5000` search) does not
hold a person's reply."""

from __future__ import annotations

import secrets

import pytest
from rq.job import JobStatus
from rq.serializers import JSONSerializer

from application.operations import jobs
from store import keys
from tests.workers.blocking import hold_until
from tests.workers.processes import ROOT, start_worker, stop, wait_for
from tests.workers.test_fair_queues import ALL_BOTS, CARD, PERSON_VS_BOT, stream_job_ids
from workers.lanes import LaneWorker

pytestmark = pytest.mark.redis


def test_the_lane_takes_the_person_turn_queued_after_bulk_turns_and_leaves_the_bulk(
    scheduling_service, empty_queues
):
    client = empty_queues
    bulk = [scheduling_service.create(CARD, ALL_BOTS, {})[0] for _ in range(3)]
    person, _, _ = scheduling_service.create(CARD, PERSON_VS_BOT, {})
    lane = LaneWorker([jobs.bot_queue(client, True)], connection=client, serializer=JSONSerializer)
    lane.work(burst=True, logging_level="ERROR", with_scheduler=False)
    assert scheduling_service.store.length(person.game_id) > person.version
    bulk_ids = [keys.bot_job_id(r.game_id, r.version) for r in bulk]
    assert sorted(jobs.fair_queue(client).job_ids()) == sorted(bulk_ids)  # untouched


def test_a_tournament_games_bot_turns_are_bulk_work_even_with_an_account_seated(
    scheduling_service, empty_queues
):
    client = empty_queues
    placed = {"id": "tlanetest", "index": 0, "deal": 0, "open": True}
    record, _, _ = scheduling_service.create(CARD, PERSON_VS_BOT, {}, tournament=placed)
    job_id = keys.bot_job_id(record.game_id, record.version)
    assert stream_job_ids(client, "t:tlanetest") == [job_id]
    assert jobs.bot_queue(client, True).job_ids == []


def test_a_person_turn_is_played_while_a_bulk_job_holds_the_main_worker(
    redis_url, scheduling_service, empty_queues
):
    client = empty_queues
    release = f"test:release:{secrets.token_hex(4)}"
    held = jobs.bot_queue(client, False).enqueue(
        hold_until, args=[release, 60], job_timeout=120, result_ttl=60
    )
    worker = start_worker(redis_url, "--sweep-every", "0", PYTHONPATH=str(ROOT))
    try:
        wait_for(lambda: held.get_status(refresh=True) == JobStatus.STARTED, 30)
        person, _, _ = scheduling_service.create(CARD, PERSON_VS_BOT, {})
        store = scheduling_service.store
        wait_for(lambda: store.length(person.game_id) > person.version, 15)
        assert held.get_status(refresh=True) == JobStatus.STARTED  # bulk still in hand
        client.set(release, "1", ex=60)
        wait_for(lambda: held.get_status(refresh=True) == JobStatus.FINISHED, 15)
        assert held.return_value() is True
    finally:
        client.set(release, "1", ex=60)
        stop(worker)
