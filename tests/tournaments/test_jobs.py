"""Tournament jobs run in this process on the real test Redis: idempotence and recovery."""

from __future__ import annotations

import json
import time

import pytest
from rq.job import Job, JobStatus
from rq.registry import StartedJobRegistry
from rq.serializers import JSONSerializer

from application.games.service import GameService
from application.operations import jobs
from application.operations import sweep as sweeps
from application.operations.sweep import sweep_tournaments
from application.tournaments import service as use_cases
from store import keys
from store.tournaments.records import TournamentStore
from tests.support.killed_jobs import leave_as_a_killed_worker_does
from tournaments import schedule, seeds
from tournaments.spec import make_spec

pytestmark = pytest.mark.redis


@pytest.fixture
def tournament(redis_client, monkeypatch, redis_url):
    """A stored 6-game greedy-vs-random tournament (no jobs enqueued); its id and spec."""
    monkeypatch.setenv("REDIS_URL", redis_url)  # jobs called outside RQ find Redis here
    spec = make_spec("keltis-card", ["greedy", "random"], 2, 6, "jobs-test", games_per_job=1)
    tid = seeds.new_tournament_id()
    TournamentStore(redis_client).create(tid, spec)
    return tid, spec


def log_of(client, game_id: str) -> list[dict]:
    return [json.loads(raw) for raw in client.lrange(keys.log(game_id), 0, -1)]


def test_a_job_run_twice_records_its_game_once(redis_client, tournament):
    tid, _ = tournament
    first = jobs.play_tournament_games(tid, 0)
    second = jobs.play_tournament_games(tid, 0)
    assert first["recorded"] == [0] and second["recorded"] == []
    store = TournamentStore(redis_client)
    assert store.done(tid) == 1
    log = log_of(redis_client, seeds.game_id(tid, 0))
    assert [e["e"]["type"] for e in log].count("game_created") == 1
    assert log[-1]["e"]["type"] == "game_ended"


def test_a_rerun_finishes_the_game_a_killed_run_created(redis_client, tournament):
    tid, spec = tournament
    service = GameService(redis_client)
    created = use_cases.load_or_create(service, spec, tid, 1)  # the killed run got this far
    assert not created.finished
    before = log_of(redis_client, created.game_id)
    jobs.play_tournament_games(tid, 1)
    log = log_of(redis_client, seeds.game_id(tid, 1))
    assert log[: len(before)] == before
    assert [e["n"] for e in log] == list(range(1, len(log) + 1))
    assert [e["e"]["type"] for e in log].count("game_created") == 1
    assert log[-1]["e"]["type"] == "game_ended"
    (outcome,) = TournamentStore(redis_client).outcomes(tid)
    assert outcome.game_id == created.game_id
    assert list(outcome.entries) == list(schedule.seating(2, 2, 1))


def test_R1_tournament_games_are_service_games_with_derived_seed_and_seats(
    redis_client, tournament
):
    tid, spec = tournament
    jobs.play_tournament_games(tid, 3)
    record, _, _ = GameService(redis_client).load(seeds.game_id(tid, 3))
    assert record.finished
    assert record.seed_hex == seeds.game_seed(spec.seed, 3).hex()
    entries = schedule.seating(2, 2, 3)
    assert [p["bot"] for p in record.players] == [spec.bots[e] for e in entries]


def test_a_tournament_game_is_the_game_the_bot_turn_worker_would_play(redis_client, tournament):
    """Whoever finishes a stranded game (this job or the bot sweep), it is the same game."""
    tid, spec = tournament
    service = GameService(redis_client)
    game_id = seeds.game_id(tid, 2)
    created = use_cases.load_or_create(service, spec, tid, 2)
    jobs.play_bot_turns(game_id, created.version)
    by_bot_worker = [(e["n"], e["by"], e.get("cmd"), e["e"]) for e in log_of(redis_client, game_id)]
    redis_client.delete(keys.log(game_id), keys.tokens(game_id), keys.idempotency(game_id))
    jobs.play_tournament_games(tid, 2)
    by_tournament = [(e["n"], e["by"], e.get("cmd"), e["e"]) for e in log_of(redis_client, game_id)]
    assert by_tournament == by_bot_worker
    assert by_tournament[-1][3]["type"] == "game_ended"


def test_a_job_plays_its_games_in_turn_skipping_recorded_ones(redis_client, monkeypatch, redis_url):
    monkeypatch.setenv("REDIS_URL", redis_url)
    spec = make_spec("keltis-card", ["greedy", "random"], 2, 6, "chunks", games_per_job=4)
    tid = seeds.new_tournament_id()
    TournamentStore(redis_client).create(tid, spec)
    assert list(use_cases.job_firsts(spec)) == [0, 4]
    assert use_cases.job_first_of(spec, 5) == 4
    use_cases.play_game(GameService(redis_client), TournamentStore(redis_client), tid, spec, 1)
    assert jobs.play_tournament_games(tid, 0)["recorded"] == [0, 2, 3]
    assert jobs.play_tournament_games(tid, 4)["recorded"] == [4, 5]
    assert TournamentStore(redis_client).done(tid) == 6
    with pytest.raises(ValueError, match="no job"):
        jobs.play_tournament_games(tid, 2)


def test_the_last_outcome_marks_the_tournament_finished(redis_client, tournament):
    tid, spec = tournament
    store = TournamentStore(redis_client)
    for index in range(spec.games):
        assert tid in store.running()
        jobs.play_tournament_games(tid, index)
    assert tid not in store.running()
    assert "finished_at" in store.meta(tid)
    assert [o.index for o in store.outcomes(tid)] == list(range(spec.games))


def _status(client, job_id):
    return Job.fetch(job_id, connection=client, serializer=JSONSerializer).get_status()


def test_sweep_revives_lost_and_stale_games_and_leaves_queued_ones(redis_client, tournament):
    tid, _ = tournament
    queue = jobs.tournament_queue(redis_client)
    queue.empty()
    store = TournamentStore(redis_client)
    jobs.play_tournament_games(tid, 0)  # done: never swept; it hands on job 1 (queued)
    jobs.enqueue_games(redis_client, tid, [2])
    now = int(time.time() * 1000)
    dispatch = {"dispatched": 6, "dispatched_at": now - 10_000}  # all six, the last 10 s ago
    redis_client.hset(keys.tournament_dispatch(tid), mapping=dispatch)
    started = Job.fetch(
        keys.tournament_game_job_id(tid, 2), connection=redis_client, serializer=JSONSerializer
    )
    started.set_status(JobStatus.STARTED)  # 2: its worker dies
    queue.remove(started.id)
    store.take_lease(tid, 2, now - 10_000)
    # 3, 4, 5: never enqueued (lost) -> revived; 2: stale lease -> revived
    revived = [i for t, i in sweep_tournaments(redis_client, 1.0, now) if t == tid]
    assert revived == [2, 3, 4, 5]
    assert _status(redis_client, keys.tournament_game_job_id(tid, 1)) == JobStatus.QUEUED
    assert _status(redis_client, keys.tournament_game_job_id(tid, 2)) == JobStatus.QUEUED
    assert store.revivals(tid) == {2: 1, 3: 1, 4: 1, 5: 1}
    assert [i for t, i in sweep_tournaments(redis_client, 1.0, now) if t == tid] == []
    queue.empty()


def test_sweep_leaves_a_job_just_dispatched_and_not_yet_enqueued(redis_client, tournament):
    """A hand-on counts the next job dispatched, then enqueues it: a sweep in between sees a
    job without a status. Lost only once the last dispatch is older than the stale limit
    (a revival here ran a game twice on a loaded machine)."""
    tid, _ = tournament
    jobs.tournament_queue(redis_client).empty()
    store = TournamentStore(redis_client)
    jobs.play_tournament_games(tid, 0)
    jobs.tournament_queue(redis_client).empty()  # job 1 counted dispatched, not enqueued yet
    now = int(time.time() * 1000)
    redis_client.hset(keys.tournament_dispatch(tid), "dispatched_at", now)
    assert [i for t, i in sweep_tournaments(redis_client, 1.0, now + 500) if t == tid] == []
    assert store.revivals(tid) == {}
    later = [i for t, i in sweep_tournaments(redis_client, 1.0, now + 1500) if t == tid]
    assert later == [1] and store.revivals(tid) == {1: 1}
    jobs.tournament_queue(redis_client).empty()


def test_sweep_waits_a_full_stale_period_for_a_started_job_without_lease(redis_client, tournament):
    tid, spec = tournament
    queue = jobs.tournament_queue(redis_client)
    queue.empty()
    for index in range(1, spec.games):
        jobs.play_tournament_games(tid, index)
    jobs.enqueue_games(redis_client, tid, [0])
    job = Job.fetch(
        keys.tournament_game_job_id(tid, 0), connection=redis_client, serializer=JSONSerializer
    )
    job.set_status(JobStatus.STARTED)
    queue.remove(job.id)
    now = int(time.time() * 1000)
    assert sweep_tournaments(redis_client, 1.0, now) == []  # first seen started
    assert sweep_tournaments(redis_client, 1.0, now + 500) == []
    assert sweep_tournaments(redis_client, 1.0, now + 1500) == [(tid, 0)]
    queue.empty()


def test_sweep_revives_a_job_taken_off_its_queue_by_a_worker_that_died_unstarted(
    redis_client, tournament
):
    """RQ pops a job off its list before marking it started: a worker killed in between
    leaves a job that says queued in no queue. Seen so for a whole stale period, it is
    lost; a queued job still in its list never is."""
    tid, spec = tournament
    queue = jobs.tournament_queue(redis_client)
    queue.empty()
    for index in range(2, spec.games):
        jobs.play_tournament_games(tid, index)
    jobs.tournament_queue(redis_client).empty()  # the hand-ons those runs made
    jobs.enqueue_games(redis_client, tid, [0, 1])
    redis_client.hset(keys.tournament_dispatch(tid), mapping={"dispatched": 6, "dispatched_at": 0})
    queue.remove(keys.tournament_game_job_id(tid, 0))  # popped; status still "queued"
    orphan = keys.tournament_game_job_id(tid, 0)
    assert _status(redis_client, orphan) == JobStatus.QUEUED
    now = int(time.time() * 1000)
    assert sweep_tournaments(redis_client, 1.0, now) == []  # first seen orphaned
    assert sweep_tournaments(redis_client, 1.0, now + 500) == []
    assert sweep_tournaments(redis_client, 1.0, now + 1500) == [(tid, 0)]
    assert orphan in queue.get_job_ids() and keys.tournament_game_job_id(tid, 1) in (
        queue.get_job_ids()
    )
    assert TournamentStore(redis_client).revivals(tid) == {0: 1}  # job 1 waits: left alone
    queue.empty()


def test_a_job_whose_killed_execution_expired_is_deleted_with_its_registry_entries(
    redis_client, tournament
):
    tid, _ = tournament
    jobs.enqueue_games(redis_client, tid, [0])
    job_id = keys.tournament_game_job_id(tid, 0)
    job = Job.fetch(job_id, connection=redis_client, serializer=JSONSerializer)
    leave_as_a_killed_worker_does(redis_client, job)
    started = StartedJobRegistry(job.origin, connection=redis_client)
    assert started.get_job_ids() == [job_id]
    jobs.delete_job(redis_client, job_id)
    assert not redis_client.exists(job.key, job.execution_registry.key)
    assert started.get_job_ids() == []


def test_sweep_revives_a_killed_workers_job_whose_execution_expired_using_one_revival(
    redis_client, tournament
):
    """RQ's own delete raises on such a job: the sweep failed there on every pass, and
    each pass used up one of the game's revivals until the tournament never finished."""
    tid, spec = tournament
    queue = jobs.tournament_queue(redis_client)
    queue.empty()
    for index in range(1, spec.games):
        jobs.play_tournament_games(tid, index)
    queue.empty()  # the hand-ons those runs made
    jobs.enqueue_games(redis_client, tid, [0])
    redis_client.hset(keys.tournament_dispatch(tid), mapping={"dispatched": 6, "dispatched_at": 0})
    job_id = keys.tournament_game_job_id(tid, 0)
    leave_as_a_killed_worker_does(
        redis_client, Job.fetch(job_id, connection=redis_client, serializer=JSONSerializer)
    )
    now = int(time.time() * 1000)
    assert sweep_tournaments(redis_client, 1.0, now) == []  # first seen started
    assert sweep_tournaments(redis_client, 1.0, now + 1500) == [(tid, 0)]
    assert TournamentStore(redis_client).revivals(tid) == {0: 1}
    assert queue.get_job_ids() == [job_id] and _status(redis_client, job_id) == JobStatus.QUEUED
    queue.empty()


def test_sweep_gives_up_on_a_game_after_the_revival_limit(redis_client, tournament):
    tid, spec = tournament
    store = TournamentStore(redis_client)
    for index in range(1, spec.games):
        jobs.play_tournament_games(tid, index)
    for _ in range(sweeps.MAX_REVIVALS):
        store.count_revival(tid, 0)
    assert sweep_tournaments(redis_client, 1.0) == []


def test_sweep_leaves_a_job_that_finishes_while_the_sweep_looks(
    redis_client, tournament, monkeypatch
):
    tid, spec = tournament
    for index in range(1, spec.games):
        jobs.play_tournament_games(tid, index)
    real_statuses = sweeps._job_statuses
    service, store = GameService(redis_client), TournamentStore(redis_client)

    def finishing_meanwhile(client, job_ids):
        use_cases.play_game(service, store, tid, spec, 0)  # its job ends right now
        return [JobStatus.FINISHED for _ in real_statuses(client, job_ids)]

    monkeypatch.setattr(sweeps, "_job_statuses", finishing_meanwhile)
    assert [r for r in sweep_tournaments(redis_client, 1.0) if r[0] == tid] == []
    assert TournamentStore(redis_client).revivals(tid) == {}
