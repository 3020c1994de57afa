"""The event store on a Redis Cluster (hash tags keep a game on one slot) and after a crash."""

from __future__ import annotations

import secrets

import pytest

from application.games.service import GameService
from gamelog.entries import make_batch
from store import keys
from store.games.eventstore import AppendRequest, EventStore


def test_append_and_load_work_on_a_redis_cluster(redis_cluster):
    client = redis_cluster.client()
    store = EventStore(client)
    game_id = secrets.token_urlsafe(16)
    events = [{"type": "tick"}, {"type": "tock"}]
    result = store.append(
        AppendRequest(
            game_id, 0, make_batch(1, events, 5, None, None), "0:k", {"a": 1}, {0: "ab" * 32}
        )
    )
    assert (result.status, result.version) == ("ok", 2)
    conflict = store.append(AppendRequest(game_id, 0, make_batch(1, events, 5, None, None)))
    assert (conflict.status, conflict.version) == ("conflict", 2)
    snapshot = store.load(game_id, idempotency_field="0:k")
    assert [e.event["type"] for e in snapshot.entries] == ["tick", "tock"]
    assert snapshot.prior_answer == {"a": 1}
    assert snapshot.token_hashes == {0: "ab" * 32}
    slots = {client.keyslot(k(game_id)) for k in (keys.log, keys.idempotency, keys.tokens)}
    assert len(slots) == 1
    client.close()


@pytest.mark.timeout(60)
def test_an_acknowledged_game_survives_a_redis_crash(aof_redis):
    client = aof_redis.client()
    service = GameService(client)
    record, tokens, _ = service.create("keltis-card", [{"name": "a"}, {"name": "b"}], {})
    move = record.rules.legal_moves(record.state, 0)[0]
    service.play(record.game_id, tokens[0], move, lambda r, b, s: {"version": r.version})
    before = client.lrange(keys.log(record.game_id), 0, -1)
    client.close()
    aof_redis.restart(crash=True)
    client = aof_redis.client()
    assert client.lrange(keys.log(record.game_id), 0, -1) == before
    reloaded, hashes, _ = GameService(client).load(record.game_id)
    assert reloaded.version == len(before)
    assert set(hashes) == {0, 1}
    client.close()
