"""docs/CONFIGURATION.md is the page `keltis config --markdown` generates, and every
variable's default agrees with the constants the code still keeps beside it."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from application.bots import analysis
from application.budget import service as budget
from application.live import holds, streams
from application.operations import sweep
from application.seeks import pairing
from application.seeks import service as seeks
from cli.config import config
from settings import from_env

ROOT = Path(__file__).resolve().parents[2]


def test_the_page_is_the_generated_one():
    generated = CliRunner().invoke(config, ["--markdown"]).output
    assert (ROOT / "docs" / "CONFIGURATION.md").read_text() == generated, (
        "regenerate it: keltis config --markdown > docs/CONFIGURATION.md"
    )


def test_operations_links_the_page():
    assert "(CONFIGURATION.md)" in (ROOT / "docs" / "OPERATIONS.md").read_text()


def test_the_defaults_agree_with_the_constants_of_the_code():
    read = from_env({})
    assert (read.stream_keepalive_s, read.stream_max_s) == (streams.KEEPALIVE_S, streams.MAX_S)
    assert (read.streams_per_account, read.stream_lease_s) == (holds.PER_ACCOUNT, holds.LEASE_S)
    assert read.analysis_iterations == analysis.ITERATIONS
    assert read.game_expiry_s == sweep.DEFAULT_EXPIRY_S
    assert read.bot_cpu_budget_anon == budget.DEFAULT_ANON
    assert read.bot_cpu_budget_account == budget.DEFAULT_ACCOUNT
    assert (read.seeks_per_account, read.seeks_per_address) == (
        seeks.PER_ACCOUNT,
        seeks.PER_ADDRESS,
    )
    assert read.seek_grace_s == seeks.GRACE_S
    assert (read.seek_base_range, read.seek_widen_per_s) == (
        pairing.DEFAULT_BASE_RANGE,
        pairing.DEFAULT_WIDEN_PER_S,
    )
    assert read.seek_repeat_window_s == pairing.DEFAULT_REPEAT_WINDOW_S
    assert read.pool_bot_wait_s == pairing.DEFAULT_BOT_WAIT_S
