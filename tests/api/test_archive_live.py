"""Checked on the real stack: gunicorn's gevent web process and a `keltis worker`
with KELTIS_ARCHIVE_URL set (a real PostgreSQL): the worker plays a bot game, compacts it
and moves it to the archive on its own; the web process then serves it from PostgreSQL
with the same bytes as before (psycopg under gevent)."""

from __future__ import annotations

import pytest
import requests

from cli.serve import start_stack
from store import keys
from tests.support.ports import free_port  # this worker's own range: no port race
from tests.workers.processes import wait_for


@pytest.mark.slow
def test_the_real_stack_archives_a_finished_game_and_serves_it_unchanged(
    private_redis_server, private_redis, archive, monkeypatch
):
    monkeypatch.setenv("KELTIS_ARCHIVE_AFTER", "3s")  # the move waits a little: reads first
    monkeypatch.setenv("KELTIS_COMPACT_AFTER_S", "0")
    stack = start_stack(port=free_port(), web_workers=1, redis_url=private_redis_server.url)
    try:
        base = stack.base_url
        players = [{"bot": "greedy"}, {"bot": "random"}]
        created = requests.post(
            f"{base}/v1/games", json={"game": "keltis-dice", "players": players}, timeout=30
        ).json()
        game_id = created["id"]

        def state():
            return requests.get(f"{base}/v1/games/{game_id}", timeout=30)

        wait_for(lambda: state().json()["status"] == "finished", 120, "the bots to finish")
        wait_for(lambda: private_redis.exists(keys.packed(game_id)), 60, "the compaction")
        paths = ("", "/events", "/replay", "?at=3")
        before = {p: requests.get(f"{base}/v1/games/{game_id}{p}", timeout=30) for p in paths}
        listed = requests.get(f"{base}/v1/games", timeout=30).content
        wait_for(lambda: archive.blob(game_id) is not None, 120, "the move to the archive")
        wait_for(lambda: not private_redis.exists(keys.packed(game_id)), 60, "the delete")
        wait_for(
            lambda: not private_redis.hexists(keys.game_summaries(), game_id), 60, "the unlist"
        )
        for path, answer in before.items():
            again = requests.get(f"{base}/v1/games/{game_id}{path}", timeout=30)
            assert answer.status_code == again.status_code == 200
            assert again.content == answer.content, path
        assert requests.get(f"{base}/v1/games", timeout=30).content == listed
    finally:
        stack.stop()
