"""Tournaments on real `keltis worker` processes (RQ, JSON serializer) on the test Redis."""

from __future__ import annotations

import os
import signal
import time

import pytest
from rq import Worker

from application.tournaments.service import games_of_job
from devtools.redis_servers import RedisServer
from devtools.tallies import recompute_from_logs
from store import keys
from store.keys import tournament_game_job_id as game_job_id
from store.tournaments.records import TournamentStore

pytestmark = [pytest.mark.redis, pytest.mark.slow]


@pytest.fixture(scope="module")
def redis_url():
    """A Redis of this file's own: the workers these tests start serve every queue, so the
    bot turns and open tournaments that earlier test files leave on the session's shared
    server (their clocks and ticks still due) would hold them, on a loaded machine for longer
    than the deadlines here."""
    server = RedisServer().start()
    try:
        yield server.url
    finally:
        server.close()


def start(client, games: int, seed: str) -> dict:
    body = {"game": "keltis-card", "bots": ["greedy", "random"], "games": games, "seed": seed}
    response = client.post("/v1/tournaments", json=body)
    assert response.status_code == 202, response.json
    return response.json


def wait_until_finished(client, tid: str, timeout_s: float = 90.0) -> dict:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        state = client.get(f"/v1/tournaments/{tid}").json
        if state["status"] == "finished":
            return state
        time.sleep(0.1)
    raise AssertionError(f"tournament {tid} unfinished: {state['progress']}")


def assert_consistent_with_games(redis_client, state: dict) -> None:
    """Every game counted once, and the standings are what the games' own logs say."""
    labels = [row["bot"] for row in state["standings"]]
    totals = recompute_from_logs(redis_client, state["game_ids"], labels)
    assert sum(row["games"] for row in state["standings"]) == 2 * state["games"]
    for row in state["standings"]:
        own = totals[row["bot"]]
        assert row["games"] == own["games"] == state["games"]
        assert (row["wins"], row["shared_wins"]) == (own["wins"], own["shared"])
        mean = sum(own["scores"]) / len(own["scores"])
        assert row["mean_score"] == pytest.approx(mean, abs=1e-4)
    outcomes = TournamentStore(redis_client).outcomes(state["id"])
    assert [o.index for o in outcomes] == list(range(state["games"]))
    assert [o.game_id for o in outcomes] == state["game_ids"]


def worker_of(redis_client, pid: int) -> Worker | None:
    """The main RQ worker of a process (not its interactive lane, workers.lanes)."""
    tournaments = keys.tournament_queue_name()
    return next(
        (
            w
            for w in Worker.all(connection=redis_client)
            if w.pid == pid and tournaments in w.queue_names()
        ),
        None,
    )


def test_fifty_games_on_two_workers_match_the_games_results(
    client, redis_client, start_workers, drained_tournament_queue
):
    # nothing goes stale here, however long a loaded machine keeps a worker off the cores
    first, second = start_workers(2, stale_after_s=60.0)
    tid = start(client, 50, "two-workers")["id"]
    state = wait_until_finished(client, tid)
    assert_consistent_with_games(redis_client, state)
    assert first.poll() is None and second.poll() is None
    assert TournamentStore(redis_client).revivals(tid) == {}


def test_a_worker_killed_mid_game_loses_and_double_counts_nothing(
    client, redis_client, start_workers, drained_tournament_queue
):
    victim, survivor = start_workers(2, stale_after_s=1.0)
    tid = start(client, 60, "sigkill")["id"]
    store = TournamentStore(redis_client)
    deadline = time.monotonic() + 30
    while store.done(tid) < 5 and time.monotonic() < deadline:
        time.sleep(0.02)
    spec, _ = store.load(tid)
    killed_first = None
    while killed_first is None and time.monotonic() < deadline:
        os.kill(victim.pid, signal.SIGSTOP)  # freeze it, then look at what it is doing
        worker = worker_of(redis_client, victim.pid)
        job_id = worker.get_current_job_id() if worker is not None else None
        first = int(job_id.rsplit("-", 1)[1]) if job_id and job_id.startswith("tgame-") else None
        if first is not None and store.missing_outcomes(tid, games_of_job(spec, first)):
            os.kill(victim.pid, signal.SIGKILL)  # inside a job with games still to play
            victim.wait()
            killed_first = first
        else:
            os.kill(victim.pid, signal.SIGCONT)
            time.sleep(0.005)
    assert killed_first is not None, "never caught the worker inside a job"
    assert job_id == game_job_id(tid, killed_first)
    state = wait_until_finished(client, tid)
    assert_consistent_with_games(redis_client, state)
    assert store.revivals(tid).get(killed_first, 0) >= 1  # the sweep brought it back
    assert survivor.poll() is None
