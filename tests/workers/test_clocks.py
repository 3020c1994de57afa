"""Turn clocks with real `keltis worker` processes: a deadline fires a timeout, a race with 50
movers has one winner per version, and deadlines survive a SIGKILLed worker."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time

from application.games.errors import VersionConflict
from application.games.service import GameService
from gamelog.entries import Entry
from store import keys
from tests.workers import processes
from tests.workers.processes import stop

CARD = "keltis-card"
CLOCK = {"move_seconds": 1, "bank_seconds": 0, "fallback": "random", "max_timeouts": 100}


def start_worker(redis_url: str, **env) -> subprocess.Popen:
    return processes.start_worker(redis_url, "--deadline-every", "0.1", **env)


def person_game(service: GameService) -> tuple[str, dict[int, str]]:
    record, tokens, _ = service.create(CARD, [{"name": "ann"}, {"name": "bea"}], {}, clock=CLOCK)
    return record.game_id, tokens


def timeouts_of(entries: list[Entry]) -> list[dict]:
    return [e.event for e in entries if e.event["type"] == "turn_timed_out"]


def wait_for(predicate, seconds: float = 15.0):
    return processes.wait_for(predicate, seconds)


def test_a_worker_times_out_a_passed_deadline_with_the_fallback_move(redis_client, redis_url):
    service = GameService(redis_client)
    game_id, _ = person_game(service)
    record, _, _ = service.load(game_id)
    assert redis_client.zscore(keys.deadlines(), game_id) == record.deadline
    worker = start_worker(redis_url)
    try:
        entries = wait_for(lambda: service.entries_after(game_id, record.version, 10))
    finally:
        stop(worker)
    timeout, move = entries[0], entries[1]
    assert timeout.event["seat"] == record.to_move and timeout.event["version"] == record.version
    assert move.by == record.to_move and move.cmd is not None
    # Never before the deadline. How late is the benchmark's figure (clock_lateness_p99_ms):
    # here it would time the worker's start, which took 1.5 s on a loaded machine.
    assert record.deadline <= timeout.at
    after, _, _ = service.load(game_id)
    assert redis_client.zscore(keys.deadlines(), game_id) == after.deadline


def test_fifty_clients_racing_a_timeout_leave_one_winner_per_version(redis_client, redis_url):
    service = GameService(redis_client)
    games = [person_game(service) for _ in range(3)]
    tokens_of = dict(games)
    worker = start_worker(redis_url)
    try:
        for game_id, _ in games:
            record, _, _ = service.load(game_id)
            seat, version = record.to_move, record.version
            move = record.rules.legal_moves(record.state, seat)[0]
            wins: list[int] = []
            barrier = threading.Barrier(50)

            def post(move=move, seat=seat, version=version, gid=game_id, wins=wins, gate=barrier):
                mover = GameService(redis_client)
                gate.wait()
                try:
                    token = tokens_of[gid][seat]
                    mover.play(gid, token, move, lambda *a: {}, expected_version=version)
                    wins.append(1)
                except VersionConflict:
                    pass

            time.sleep(max(0.0, (record.deadline - time.time() * 1000) / 1000 - 0.02))
            threads = [threading.Thread(target=post) for _ in range(50)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            entries = wait_for(lambda gid=game_id, v=version: service.entries_after(gid, v, 10))
            fired = [t for t in timeouts_of(entries) if t["version"] == version]
            assert len(wins) + len(fired) == 1, (wins, fired)
            assert (entries[0].event["type"] == "turn_timed_out") == bool(fired)
            time.sleep(0.3)  # a second worker pass must not append a second timeout
            every = service.entries_after(game_id, 0, 1000)
            assert len([t for t in timeouts_of(every) if t["version"] == version]) <= 1
    finally:
        stop(worker)


def test_deadlines_pending_when_a_worker_is_killed_fire_once_after_restart(redis_client, redis_url):
    service = GameService(redis_client)
    first = start_worker(redis_url)
    games = [person_game(service) for _ in range(6)]
    versions = {game_id: service.load(game_id)[0].version for game_id, _ in games}
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    time.sleep(1.2)  # every deadline passes with no worker alive
    assert all(service.load(g)[0].version == v for g, v in versions.items())
    second = start_worker(redis_url)
    try:
        for game_id, version in versions.items():
            wait_for(lambda g=game_id, v=version: service.entries_after(g, v, 10))
    finally:
        stop(second)
    for game_id, version in versions.items():
        every = service.entries_after(game_id, 0, 1000)
        assert [t["version"] for t in timeouts_of(every)].count(version) == 1


def test_a_deadline_of_a_vanished_game_does_not_stop_the_others(redis_client):
    """A deadline entry whose log is gone is dropped; the next due game still times out."""
    from application.games.clocks import time_out_due

    service = GameService(redis_client)
    game_id, _ = person_game(service)
    record, _, _ = service.load(game_id)
    redis_client.zadd(keys.deadlines(), {"vanished-game-000000": 1})
    service.clock = lambda: record.deadline + 1
    assert time_out_due(service) >= 1
    assert redis_client.zscore(keys.deadlines(), "vanished-game-000000") is None
    assert timeouts_of(service.entries_after(game_id, record.version, 10))


def test_a_game_whose_timeout_fails_is_tried_later_and_holds_no_other_game(
    redis_client, monkeypatch, caplog
):
    """One broken game (here its fallback fails) must not fill the due batch nor log on every
    sweep: it moves RETRY_FAILED_MS back in the index, and the next due game times out."""
    from application.games import clocks

    redis_client.delete(keys.deadlines())  # earlier tests' games would be due first
    service = GameService(redis_client)
    broken_id, _ = person_game(service)
    other_id, _ = person_game(service)
    other, _, _ = service.load(other_id)
    first = other.deadline - 1000  # the broken game is the oldest due entry
    redis_client.zadd(keys.deadlines(), {broken_id: first})
    real = clocks.time_out

    def failing(service, game_id, *args, **kwargs):
        if game_id == broken_id:
            raise RuntimeError("the fallback bot failed")
        return real(service, game_id, *args, **kwargs)

    monkeypatch.setattr(clocks, "time_out", failing)
    now = other.deadline + 1
    service.clock = lambda: now
    assert clocks.time_out_due(service, limit=1) == 0  # the broken game, deferred
    assert redis_client.zscore(keys.deadlines(), broken_id) == now + clocks.RETRY_FAILED_MS
    assert clocks.time_out_due(service, limit=1) == 1  # the next one is not held up
    assert timeouts_of(service.entries_after(other_id, other.version, 10))
    failures = [r for r in caplog.records if broken_id in r.getMessage()]
    assert len(failures) == 1
    assert clocks.time_out_due(service, limit=1) == 0  # not tried again before its time
    assert len([r for r in caplog.records if broken_id in r.getMessage()]) == 1
    service.clock = lambda: now + clocks.RETRY_FAILED_MS
    clocks.time_out_due(service)  # due again (the other game's next deadline is due too)
    assert len([r for r in caplog.records if broken_id in r.getMessage()]) == 2


def test_a_deferral_leaves_a_deadline_written_since_it_was_read(redis_client):
    from store.games import index

    service = GameService(redis_client)
    game_id, _ = person_game(service)
    record, _, _ = service.load(game_id)
    assert not index.defer_deadline(redis_client, game_id, record.deadline - 5, 10**13)
    assert redis_client.zscore(keys.deadlines(), game_id) == record.deadline
    assert index.defer_deadline(redis_client, game_id, record.deadline, 10**13)
    assert redis_client.zscore(keys.deadlines(), game_id) == 10**13
