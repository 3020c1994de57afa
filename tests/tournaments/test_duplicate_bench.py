"""The `duplicate` benchmark runs (small) and measures both sides with the same interval."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bench.duplicate import measure, width_and_correlation
from tournaments.local import run_local
from tournaments.spec import make_spec
from tournaments.standings import mean_ci95, pair_differences

ROOT = Path(__file__).resolve().parents[2]


def test_both_widths_are_the_t_interval_of_their_units():
    for fmt, size in (("duplicate", 2), ("round_robin", 1)):
        width, n, _ = width_and_correlation("keltis-card", ["greedy", "random"], fmt, 12, "w")
        spec = make_spec("keltis-card", ["greedy", "random"], 2, None, "w", format=fmt,
                         games_per_table=12)  # fmt: skip
        diffs = pair_differences(2, run_local(spec), size)[(0, 1)]
        _, low, high = mean_ci95(diffs)
        assert n == len(diffs) == 12 // size
        assert width == pytest.approx(high - low, abs=1e-3)


def test_a_greedy_self_duplicate_in_dice_cancels_the_luck_entirely():
    # greedy is deterministic in keltis-dice: the rotation of a deal mirrors its first game.
    found = measure("keltis-dice", ["greedy", "greedy"], games=8, rounds=1)
    assert found["duplicate_width"] == 0.0 and found["round_robin_width"] > 0
    assert found["deals"] == 4 and found["games"] == 8


def test_the_benchmark_prints_its_figures_in_quick_mode():
    env = {"BENCH_DUPLICATE_GAMES": "8", "BENCH_DUPLICATE_ROUNDS": "1", "PATH": ""}
    run = subprocess.run(
        [sys.executable, "-m", "bench", "duplicate"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    names = [line.split(":")[0] for line in run.stdout.splitlines() if not line.startswith("#")]
    assert "duplicate_ci_ratio" in names and "duplicate_ci_ratio_dice" in names
    assert "duplicate_ci_ratio_duplicate_width" in names
    ratio = next(line for line in run.stdout.splitlines() if line.startswith("duplicate_ci_ratio:"))
    assert float(ratio.split()[1]) > 0
