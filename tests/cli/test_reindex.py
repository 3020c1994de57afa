"""`keltis reindex` against a real Redis."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.redis


def test_reindex_rebuilds_the_listing_from_the_logs(redis_url, redis_client):
    from click.testing import CliRunner

    from application.games.service import GameService
    from cli.main import cli
    from store import keys

    record, _, _ = GameService(redis_client).create(
        "keltis-card", [{"name": "a"}, {"name": "b"}], {}
    )
    redis_client.hdel(keys.game_summaries(), record.game_id)
    result = CliRunner().invoke(cli, ["reindex", "--redis-url", redis_url])
    assert result.exit_code == 0, result.output
    assert "reindexed" in result.output
    assert redis_client.hexists(keys.game_summaries(), record.game_id)
