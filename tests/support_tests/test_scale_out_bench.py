"""`python -m bench scale_out` at its smallest: one web process and one worker on a 3-master
Cluster, one client of each kind, a few moves; every figure of the configuration printed,
and the costs it measures are there (CPU of each kind of process, Redis round trips)."""

from __future__ import annotations

import pytest

from bench import scale_out
from tests.support.fixtures import redis7_binary

# A whole served stack (gunicorn and a worker) beside the cluster: make test runs it alone.
pytestmark = [pytest.mark.redis, pytest.mark.serial]

NAMES = (
    "moves",
    "bot_moves",
    "errors",
    "moves_per_s",
    "web_cpu_ms_per_move",
    "worker_cpu_ms_per_move",
    "worker_cpu_ms_per_bot_move",
    "redis_round_trips_per_move",
    "redis_commands_per_move",
    "redis_bytes_per_move",
    "redis_cpu_ms_per_move",
    "redis_busiest_master_share",
    "queue_round_trips_per_move",
    "queue_cpu_ms_per_move",
    "idle_web_cpu_ms_per_s",
    "idle_worker_cpu_ms_per_s",
    "idle_redis_round_trips_per_s",
    "idle_queue_round_trips_per_s",
    "web_cpu_ms_per_move_above_idle",
    "worker_cpu_ms_per_move_above_idle",
    "redis_round_trips_per_move_above_idle",
    "queue_round_trips_per_move_above_idle",
    "web_rss_mb",
    "worker_rss_mb",
)


def test_the_smallest_run_prints_each_figure_of_its_configuration(monkeypatch, capsys):
    redis7_binary()
    for name, value in {
        "SHAPES": "1x1",
        "MOVES": 20,
        "WARMUP": 0,
        "MAX_S": 60.0,
        "IDLE_S": 0.5,
        "PERSON_CLIENTS": 1,
        "BOT_CLIENTS": 1,
    }.items():
        monkeypatch.setattr(scale_out, name, value)
    scale_out.run()
    lines = [line for line in capsys.readouterr().out.splitlines() if ": " in line]
    printed = dict(line.split("  #")[0].split(": ", 1) for line in lines)
    assert [name for name in printed if name.startswith("scale_out_")] == [
        f"scale_out_w1_k1_{name}" for name in NAMES
    ]
    assert int(printed["scale_out_w1_k1_moves"]) >= 20
    assert int(printed["scale_out_w1_k1_errors"]) == 0
    for cost in ("web_cpu_ms_per_move", "redis_round_trips_per_move", "web_rss_mb"):
        assert float(printed[f"scale_out_w1_k1_{cost}"]) > 0
    assert float(printed["scale_out_w1_k1_redis_commands_per_move"]) >= float(
        printed["scale_out_w1_k1_redis_round_trips_per_move"]
    )
