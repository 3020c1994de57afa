"""A restarted worker finds the seeks in Redis: a seek opened while one worker ran is paired
by the next one, after the first was killed (no web server, no other worker on this Redis)."""

from __future__ import annotations

import uuid

import pytest

from application.accounts.service import AccountService
from application.games.service import GameService
from application.seeks.service import SeekBounds, open_seek
from application.webhooks.policy import WebhookPolicy
from store import keys
from tests.workers.processes import start_worker, wait_for

pytestmark = pytest.mark.redis


def test_a_restarted_worker_finds_the_seeks_in_redis(private_redis_server, private_redis):
    client = private_redis
    service = GameService(client)
    accounts = AccountService(client, WebhookPolicy(()))
    names = ["rs" + uuid.uuid4().hex[:10] for _ in range(2)]
    records = [accounts.sign_up(name, bot=True, webhook=None).record for name in names]
    for name in names:  # both listen (their stream slots held)
        client.zadd(keys.account_streams(name), {"s": service.clock() + 600_000})
    env = {"KELTIS_PAIR_EVERY_S": "0.2", "KELTIS_POOL_BOTS": ""}
    worker = start_worker(private_redis_server.url, **env)
    body = {"game": "keltis-card", "players": 2, "rated": True, "max_games": 1}
    first = open_seek(service, records[0], body, "10.0.0.9", SeekBounds())
    seek_key = keys.seek(first["id"])
    wait_for(lambda: int(client.hget(seek_key, "seen")) > first["created_at"], 20)  # seen
    worker.kill()  # the first seek waits alone; its worker dies
    worker.wait()
    worker = start_worker(private_redis_server.url, **env)
    try:
        open_seek(service, records[1], body, "10.0.0.10", SeekBounds())
        game_id = wait_for(lambda: client.zrange(keys.account_playing(names[0]), 0, -1), 20)
        record, _, _ = service.load(game_id[0].decode())
        assert sorted(p["account"] for p in record.players) == sorted(names)
    finally:
        worker.kill()
        worker.wait()
