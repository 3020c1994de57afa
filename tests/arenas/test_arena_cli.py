"""`keltis arena open|list|close` on the service's Redis (the operator's command line)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from cli.main import cli

pytestmark = pytest.mark.redis


def test_the_operator_opens_lists_and_closes_an_arena_from_the_command_line(redis_url):
    runner = CliRunner()
    env = {"REDIS_URL": redis_url}
    opened = runner.invoke(
        cli,
        ["arena", "open", "--game", "keltis-card", "--players", "2", "--clock", "5",
         "--minutes", "60", "--name", "night-arena"],
        env=env,
    )  # fmt: skip
    assert opened.exit_code == 0, opened.output
    aid = opened.output.split()[0]
    assert "running" in opened.output and "night-arena" in opened.output
    listed = runner.invoke(cli, ["arena", "list"], env=env)
    assert listed.exit_code == 0 and aid in listed.output
    closed = runner.invoke(cli, ["arena", "close", aid], env=env)
    assert closed.exit_code == 0 and "finishing" in closed.output
    missing = runner.invoke(cli, ["arena", "close", "nosucharena"], env=env)
    assert missing.exit_code != 0 and "arena_not_found" in missing.output
