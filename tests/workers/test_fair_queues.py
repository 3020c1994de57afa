"""Bot turns of games with a person seated go ahead of all-bot (bulk) games: the queue is
chosen by seating, and workers serve the person queue first. Bulk bot turns wait in the
fair queue, one stream per creator, and bulk turns and tournaments share a worker's time
(store.bots.fair_queue, workers.fair)."""

from __future__ import annotations

import time

import pytest
from rq.serializers import JSONSerializer

from application.games.service import new_game_id
from application.operations import jobs
from store import keys
from store.budget.records import BudgetStore
from workers.fair import CATCH_UP_S, FairSimpleWorker, charge, shared_order

pytestmark = pytest.mark.redis

CARD = "keltis-card"
PERSON_VS_BOT = [{"name": "rob", "bot": "greedy"}, {"name": "ann"}]  # the bot moves first
ALL_BOTS = [{"name": "rob", "bot": "greedy"}, {"name": "rex", "bot": "random"}]


def stream_job_ids(client, stream: str) -> list[str]:
    """The jobs of one stream waiting in the fair queue, in the order they will go."""
    return [job.decode() for job in client.lrange(keys.fair_stream(stream), 0, -1)]


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
    assert bulk_queue.job_ids == []  # no worker waits: it waits in the fair queue
    assert stream_job_ids(client, f"game:{bulk_game.game_id}") == [bulk_job]


def test_workers_listen_to_person_turns_first_then_bulk_turns_and_tournaments(redis_client):
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
    worker = FairSimpleWorker(jobs.queues(client), connection=client, serializer=JSONSerializer)
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


def _created_by(service, payer: str, players: list[dict]):
    """A game whose creator record names `payer` (written first, as the API does)."""
    game_id = new_game_id()
    BudgetStore(service.client).open_record(keys.game_creator(game_id), 0, (), payer=payer)
    return service.create(CARD, players, {}, game_id=game_id)[0]


def test_one_creators_queued_games_delay_anothers_first_bot_turn_by_one_job(
    scheduling_service, empty_queues
):
    client = empty_queues
    many = [_created_by(scheduling_service, "acct:many", ALL_BOTS) for _ in range(12)]
    other = _created_by(scheduling_service, "acct:other", ALL_BOTS)
    assert len(stream_job_ids(client, "acct:many")) == 12
    worker = FairSimpleWorker(jobs.queues(client), connection=client, serializer=JSONSerializer)
    worker.work(burst=True, logging_level="ERROR", with_scheduler=False)

    def ended(record):
        return jobs.fetch_job(client, keys.bot_job_id(record.game_id, record.version)).ended_at

    before = [r for r in many if ended(r) < ended(other)]
    assert len(before) <= 1, f"{len(before)} of the first creator's jobs went first"
    assert jobs.fair_queue(client).job_ids() == []


def test_a_stream_that_leaves_and_comes_back_takes_no_extra_turn(empty_queues):
    client = empty_queues
    fair = jobs.fair_queue(client)
    bulk = jobs.bot_queue(client, False)
    for n in range(3):
        fair.push("acct:steady", f"steady-{n}")
    fair.push("acct:hopper", "hopper-0")  # ties go by stream key: hopper first
    assert fair.fill()
    taken = [bulk.pop_job_id()]
    fair.push("acct:hopper", "hopper-1")  # back as soon as its job was taken
    while fair.fill():
        taken.append(bulk.pop_job_id())
    assert taken == ["hopper-0", "steady-0", "hopper-1", "steady-1", "steady-2"]
    assert not fair.fill() and fair.job_ids() == []


class _Named:
    def __init__(self, name: str):
        self.name = name


def test_bulk_turns_and_tournaments_share_the_worker_by_time_a_person_first():
    person, bulk, tournament = _Named("person"), _Named("bulk"), _Named("tournament")
    served = {"bulk": 0.0, "tournament": 0.0}

    def order() -> list[str]:
        return [q.name for q in shared_order([person], [bulk, tournament], served)]

    charge(served, "bulk", 0.5)  # one searching move
    assert order() == ["person", "tournament", "bulk"]
    charge(served, "tournament", 0.1)  # a short tournament job: still owed time
    assert order() == ["person", "tournament", "bulk"]
    charge(served, "tournament", 0.45)
    assert order() == ["person", "bulk", "tournament"]
    charge(served, "bulk", 3600)  # a queue that waited is owed CATCH_UP_S at most
    assert served == {"bulk": CATCH_UP_S, "tournament": 0.0}


def test_a_real_worker_plays_another_creators_first_bot_turn_next_beside_searching_games(
    scheduling_service, empty_queues, worker_process
):
    from rq.registry import FinishedJobRegistry

    from tests.workers.processes import wait_for

    client = empty_queues
    searching = [{"name": "s0", "bot": "mcts:100"}, {"name": "s1", "bot": "mcts:100"}]
    busy = [_created_by(scheduling_service, "acct:busy", searching) for _ in range(12)]
    store = scheduling_service.store
    wait_for(lambda: sum(store.length(r.game_id) - r.version for r in busy) >= 6, 60, "searches")
    newcomer = _created_by(scheduling_service, "addr:203.0.113.9", ALL_BOTS)
    first = keys.bot_job_id(newcomer.game_id, newcomer.version)
    wait_for(lambda: store.length(newcomer.game_id) > newcomer.version, 60, "its first turn")
    job = jobs.fetch_job(client, first)
    finished = FinishedJobRegistry(keys.bulk_bot_queue_name(), connection=client)
    busy_jobs = [jobs.fetch_job(client, job_id) for job_id in finished.get_job_ids()]
    # A finished job the worker has since put back as lost (its hash rewritten, not started
    # again) has no start time: it cannot have gone first.
    ahead = [
        other.id
        for other in busy_jobs
        if other is not None
        and other.id != first
        and other.started_at is not None
        and job.enqueued_at < other.started_at < job.started_at
    ]
    assert len(ahead) <= 1, f"{len(ahead)} searching moves of another creator went first"
