"""The periodic threads beside a worker (workers.periodic): a pass every few seconds, one at
once when woken, none after the stop, a failed pass logged and the next run as usual, and the
teardown once the passes are over."""

from __future__ import annotations

import logging
import threading
import time

from tests.workers.processes import wait_for
from workers.periodic import PeriodicThread

LONG_S = 30.0  # a period no test waits out: a pass before it was woken


class Counting(PeriodicThread):
    """Counts its passes; fails the passes numbered in `failing`."""

    def __init__(self, every_s: float, failing: tuple[int, ...] = ()):
        super().__init__("counting", every_s)
        self.failing = failing
        self.passes = 0
        self.events: list[str] = []
        self.passed = threading.Event()

    def setup(self) -> None:
        self.events.append("setup")

    def tick(self) -> None:
        self.passes += 1
        self.passed.set()
        if self.passes in self.failing:
            raise RuntimeError(f"pass {self.passes} broke")

    def teardown(self) -> None:
        self.events.append("teardown")


def run(thread: PeriodicThread) -> PeriodicThread:
    thread.start()
    return thread


def stopped(thread: PeriodicThread) -> None:
    thread.stop()
    thread.join(timeout=5)
    assert not thread.is_alive()


def test_passes_run_every_period_after_the_setup():
    thread = run(Counting(every_s=0.02))
    try:
        wait_for(lambda: thread.passes >= 3, 5)
    finally:
        stopped(thread)
    assert thread.events == ["setup", "teardown"]


def test_wake_runs_a_pass_at_once_instead_of_at_the_end_of_the_period():
    thread = run(Counting(every_s=LONG_S))
    try:
        time.sleep(0.1)
        assert thread.passes == 0  # idle in its long wait
        started = time.monotonic()
        thread.wake()
        assert thread.passed.wait(15)
        assert time.monotonic() - started < 10.0  # not LONG_S
        assert thread.passes == 1
    finally:
        stopped(thread)


def test_a_wake_during_a_pass_is_served_by_another_pass():
    gate = threading.Event()

    class Slow(Counting):
        def tick(self) -> None:
            super().tick()
            gate.wait(5)

    thread = run(Slow(every_s=LONG_S))
    try:
        thread.wake()
        wait_for(lambda: thread.passes == 1, 5)
        thread.wake()  # while the first pass is still running
        gate.set()
        wait_for(lambda: thread.passes == 2, 5)
    finally:
        stopped(thread)


def test_stop_ends_the_wait_at_once_runs_no_more_passes_and_tears_down():
    thread = run(Counting(every_s=LONG_S))
    time.sleep(0.1)
    started = time.monotonic()
    stopped(thread)
    assert time.monotonic() - started < 10.0  # not LONG_S
    assert thread.passes == 0
    assert thread.events == ["setup", "teardown"]


def test_a_failed_pass_is_logged_and_the_next_pass_runs(caplog):
    thread = run(Counting(every_s=0.02, failing=(1,)))
    with caplog.at_level(logging.ERROR, logger="workers.periodic"):
        try:
            wait_for(lambda: thread.passes >= 2, 5)
        finally:
            stopped(thread)
    assert "counting: a pass failed" in caplog.text
    assert "pass 1 broke" in caplog.text


def test_a_failing_sweep_does_not_keep_the_others_of_its_pass_from_running(monkeypatch, caplog):
    """The bot-turn sweep raising (a job RQ cannot read) once skipped the tournament sweep,
    the open tournaments and the expiry of that pass, and of every pass while it raised."""
    import fakeredis

    from workers import sweep as sweeps

    ran = []

    def broken(*args, **kwargs):
        ran.append("bot turn")
        raise ValueError("Execution 1 not found in Redis")

    monkeypatch.setattr(sweeps, "sweep_bot_turns", broken)
    monkeypatch.setattr(sweeps, "sweep_tournaments", lambda *a, **k: ran.append("tournament"))
    monkeypatch.setattr(
        sweeps.open_tournaments, "advance_running", lambda *a: ran.append("open tournaments")
    )
    monkeypatch.setattr(sweeps, "expire_waiting_games", lambda *a: ran.append("expiry") or [])
    thread = sweeps.SweepThread("redis://127.0.0.1:1/0", every_s=LONG_S, stale_after_s=1.0)
    thread.client = thread.queue = fakeredis.FakeRedis()
    thread.service = None
    with caplog.at_level(logging.ERROR, logger="workers.sweep"):
        thread.tick()
    assert ran == ["bot turn", "tournament", "open tournaments", "expiry"]
    assert "bot turn sweep failed" in caplog.text and "not found in Redis" in caplog.text
