"""The bulk worker's priority (workers.lanes): lowered by KELTIS_BULK_NICENESS (10 by
default), so that a person's bot turns on the interactive lanes and the web processes come
first; 0 keeps it. Each case runs in a thread of its own: a Linux thread's nice value is its
own, and the test process's threads keep theirs."""

from __future__ import annotations

import os
import threading

import pytest

from workers import lanes

pytestmark = pytest.mark.skipif(not hasattr(os, "setpriority"), reason="no setpriority here")


def _niceness_change(monkeypatch, setting: str | None) -> int:
    if setting is None:
        monkeypatch.delenv(lanes.NICENESS_ENV, raising=False)
    else:
        monkeypatch.setenv(lanes.NICENESS_ENV, setting)
    seen = {}

    def lower():
        thread = threading.get_native_id()
        before = os.getpriority(os.PRIO_PROCESS, thread)
        lanes.lower_this_threads_priority()
        seen["change"] = os.getpriority(os.PRIO_PROCESS, thread) - before
        seen["before"] = before

    worker = threading.Thread(target=lower)
    worker.start()
    worker.join(10)
    if seen["before"] + 10 > 19:
        pytest.skip("this process already runs niced: no room to lower it by 10")
    return seen["change"]


def test_bulk_worker_lowers_its_priority_by_ten_by_default(monkeypatch):
    assert _niceness_change(monkeypatch, None) == 10


def test_bulk_niceness_zero_keeps_the_priority(monkeypatch):
    assert _niceness_change(monkeypatch, "0") == 0


def test_bulk_niceness_is_taken_from_the_setting_and_a_bad_one_is_the_default(monkeypatch):
    assert _niceness_change(monkeypatch, "3") == 3
    assert _niceness_change(monkeypatch, "lots") == 10
