"""KELTIS_DURABLE_REPLICAS (store.games.durability): a move is acknowledged once a replica
holds it; short of one in time it is refused (a RedisError: the API's 503) though it may
stand on the master. Real servers: a master and its replica, a master alone."""

from __future__ import annotations

import time

import pytest

import settings
from application.games.service import GameService
from store import keys
from store.core.cache import RecordCache
from store.games.durability import Durability, NotDurable
from tests.store import toy_game

pytestmark = pytest.mark.redis

SYNC_TIMEOUT_S = 10.0


def render(record, batch, seat):
    return {"version": record.version}


@pytest.fixture
def toy(monkeypatch):
    return toy_game.register(monkeypatch)


def replica_of(redis_server_factory, master):
    """A replica of `master`, returned once its link is up and synced."""
    replica = redis_server_factory(extra_config={"replicaof": f"127.0.0.1 {master.port}"})
    probe = replica.client()
    deadline = time.monotonic() + SYNC_TIMEOUT_S
    while probe.info("replication").get("master_link_status") != "up":
        if time.monotonic() > deadline:
            pytest.fail("the replica did not sync in time")
        time.sleep(0.02)
    return replica


def play_first_legal(service, record_id, seat_tokens):
    current, _, _ = service.load(record_id)
    move = current.rules.legal_moves(current.state, current.to_move)[0]
    return service.play(record_id, seat_tokens[current.to_move], move, render)


def test_the_setting_is_off_by_default_and_read_from_the_environment(monkeypatch):
    assert (settings.current().durable_replicas, Durability().on) == (0, False)
    monkeypatch.setenv("KELTIS_DURABLE_REPLICAS", "1")
    monkeypatch.setenv("KELTIS_DURABLE_WAIT_MS", "250")
    settings.reload()
    made = Durability()
    assert (made.on, made.command()) == (True, ("WAIT", 1, 250))


def test_an_acknowledged_move_is_already_on_the_replica(redis_server_factory, toy):
    master = redis_server_factory()
    replica = replica_of(redis_server_factory, master)
    service = GameService(master.client(), RecordCache())
    service.committer.durability = Durability(replicas=1, wait_ms=5000)
    record, seat_tokens, _ = service.create(toy, [{"name": "a"}, {"name": "b"}], {})
    for _ in range(3):
        play_first_legal(service, record.game_id, seat_tokens)
        version = service.store.length(record.game_id)
        # WAIT returned only once the replica acknowledged: no waiting here.
        assert replica.client().llen(keys.log(record.game_id)) == version


def test_without_a_replica_in_time_the_move_is_refused_but_may_stand(redis_server_factory, toy):
    master = redis_server_factory()
    service = GameService(master.client(), RecordCache())
    record, seat_tokens, _ = service.create(toy, [{"name": "a"}, {"name": "b"}], {})
    service.committer.durability = Durability(replicas=1, wait_ms=50)
    before = service.store.length(record.game_id)

    with pytest.raises(NotDurable) as refused:
        play_first_legal(service, record.game_id, seat_tokens)

    assert (refused.value.wanted, refused.value.reached) == (1, 0)
    assert service.store.length(record.game_id) > before  # on the master, unconfirmed
