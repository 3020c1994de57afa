"""`keltis games --long` against a real Redis: the games in play far beyond a normal length,
longest first, read from the index."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from application.games.long_games import LONG_VERSIONS, long_games
from application.games.service import GameService
from cli.main import cli
from tests.store.test_snapshots import long_game

pytestmark = pytest.mark.redis


def test_long_lists_games_in_play_from_the_threshold_longest_first(redis_url, redis_client):
    service = GameService(redis_client)
    short, _ = long_game(service, 20, seed=3)
    long, _ = long_game(service, 70, seed=4)
    longer, _ = long_game(service, 110, seed=5)
    found = [g["id"] for g in long_games(redis_client, 60)]
    assert short.game_id not in found
    assert found.index(longer.game_id) < found.index(long.game_id)
    result = CliRunner().invoke(
        cli, ["games", "--long", "--min-version", "60", "--redis-url", redis_url]
    )
    assert result.exit_code == 0, result.output
    lines = [line.split("\t") for line in result.stdout.splitlines()]
    listed = [line[0] for line in lines]
    assert listed.index(longer.game_id) < listed.index(long.game_id)
    assert short.game_id not in listed
    row = lines[listed.index(longer.game_id)]
    assert row[1:4] == ["keltis-card", str(longer.status), f"v{longer.version}"]
    assert "at version 60 or beyond" in result.stderr


def test_long_says_its_default_threshold(redis_url):
    result = CliRunner().invoke(cli, ["games", "--long", "--redis-url", redis_url])
    assert result.exit_code == 0, result.output
    assert f"at version {LONG_VERSIONS} or beyond" in result.stderr


def test_games_asks_for_one_list(redis_url):
    result = CliRunner().invoke(cli, ["games", "--redis-url", redis_url])
    assert result.exit_code == 2 and "--stalled or --long" in result.output
