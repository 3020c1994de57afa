"""Tournaments share the workers: each has at most one game job waiting in the queue (a job
hands on the next when it starts), so a small tournament started behind a big one finishes
while the big one runs; archives are built on request and expire."""

from __future__ import annotations

import time
from collections import Counter

import pytest
from rq.serializers import JSONSerializer

from application.operations import jobs
from store import keys
from store.tournaments.records import TournamentStore

pytestmark = pytest.mark.redis

BODY = {"game": "keltis-card", "bots": ["greedy", "random"], "players_per_game": 2}


def start(client, games: int, seed: str) -> str:
    response = client.post("/v1/tournaments", json={**BODY, "games": games, "seed": seed})
    assert response.status_code == 202, response.json
    return response.json["id"]


def waiting_per_tournament(redis_client) -> Counter:
    queue = jobs.tournament_queue(redis_client)
    return Counter(job_id.removeprefix("tgame-").rsplit("-", 1)[0] for job_id in queue.job_ids)


def test_each_tournament_has_one_job_waiting_and_jobs_alternate_between_tournaments(
    client, redis_client, drained_tournament_queue, monkeypatch, redis_url
):
    monkeypatch.setenv("REDIS_URL", redis_url)
    big = start(client, 40, "fair-big")
    small = start(client, 8, "fair-small")
    assert waiting_per_tournament(redis_client) == {big: 1, small: 1}
    queue = jobs.tournament_queue(redis_client)
    played = []
    while queue.count:
        job = queue.dequeue_any([queue], None, redis_client, serializer=JSONSerializer)[0]
        played.append(job.args[0])
        job.perform()
        job.delete()
        assert max(waiting_per_tournament(redis_client).values(), default=0) <= 1
    # games_per_job 4: the big one has 10 jobs, the small one 2; they take turns.
    assert played[:4] == [big, small, big, small]
    assert Counter(played) == {big: 10, small: 2}
    store = TournamentStore(redis_client)
    assert store.done(big) == 40 and store.done(small) == 8


def test_a_small_tournament_finishes_while_a_big_one_runs_on_real_workers(
    client, redis_client, drained_tournament_queue, start_workers
):
    start_workers(2)
    big = start(client, 400, "rr-big")
    store = TournamentStore(redis_client)
    deadline = time.monotonic() + 60
    while store.done(big) < 8:
        assert time.monotonic() < deadline, "the big tournament does not run"
        time.sleep(0.02)
    small = start(client, 2, "rr-small")
    started = time.monotonic()
    while store.done(small) < 2:
        assert time.monotonic() - started < 120, "the small tournament starved"
        time.sleep(0.01)
    waited = time.monotonic() - started
    big_done = store.done(big)
    # The alternative ruled out is waiting for the big one: counted in its games, not in
    # seconds, which a loaded machine stretches (it took 30+ s once in a make test).
    assert big_done < 300, f"the small tournament waited for {big_done} of 400 big games"
    print(f"small tournament: {waited:.2f} s, big one at {big_done} of 400")


def test_a_lost_hand_on_is_dispatched_again_by_the_sweep(
    redis_client, drained_tournament_queue, monkeypatch, redis_url
):
    from application.operations.sweep import sweep_tournaments
    from tournaments import seeds
    from tournaments.spec import make_spec

    monkeypatch.setenv("REDIS_URL", redis_url)
    spec = make_spec("keltis-card", ["greedy", "random"], 2, 3, "lost-hand-on", games_per_job=1)
    tid = seeds.new_tournament_id()
    store = TournamentStore(redis_client)
    store.create(tid, spec)
    store.claim_next_job(tid, at=0)  # job 0 dispatched long ago; its enqueue was lost
    store.hand_on(tid, 0, 0)  # ... and it handed on job 1, whose enqueue was lost too
    redis_client.hset(keys.tournament_dispatch(tid), "dispatched_at", 0)
    revived = sorted(first for t, first in sweep_tournaments(redis_client, 1.0) if t == tid)
    assert revived == [0, 1]  # lost jobs among the dispatched ones; job 2 waits its turn
    assert waiting_per_tournament(redis_client) == {tid: 2}
    jobs.tournament_queue(redis_client).empty()
    for first in (0, 1):
        jobs.play_tournament_games(tid, first)  # job 0 handed on before: only 1 hands on
    assert store.dispatched(tid)[0] == 3
    assert waiting_per_tournament(redis_client) == {tid: 1}


def test_an_archive_expires_and_is_built_again_on_request(
    client, redis_client, run_queued_jobs, drained_tournament_queue, monkeypatch
):
    monkeypatch.setenv(jobs.ARCHIVE_TTL_ENV, "60")
    tid = start(client, 2, "archive-ttl")
    run_queued_jobs()
    assert client.post(f"/v1/tournaments/{tid}/archive").status_code == 202
    run_queued_jobs()
    assert 0 < redis_client.ttl(keys.tournament_archive(tid)) <= 60
    assert client.get(f"/v1/tournaments/{tid}/archive").status_code == 200
    # The TTL runs out: Redis drops the key exactly as this does (no sleep, no race).
    redis_client.expire(keys.tournament_archive(tid), 0)
    assert client.get(f"/v1/tournaments/{tid}").json["archive"] == "none"
    expired = client.get(f"/v1/tournaments/{tid}/archive")
    assert expired.status_code == 409 and expired.json["error"]["code"] == "archive_not_ready"
    again = client.post(f"/v1/tournaments/{tid}/archive")
    assert again.status_code == 202 and again.json["archive"] == "queued"
    run_queued_jobs()
    assert client.get(f"/v1/tournaments/{tid}/archive").status_code == 200


def test_an_archive_is_kept_an_hour_by_default(monkeypatch):
    monkeypatch.delenv(jobs.ARCHIVE_TTL_ENV, raising=False)
    assert jobs.archive_ttl_s() == 3600
