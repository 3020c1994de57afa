"""A master's failover on a real 3-master, 3-replica Redis Cluster: with
KELTIS_DURABLE_REPLICAS=1 a move acknowledged before its master is SIGKILLed is still in the
log the promoted replica serves, and the service plays on by itself (its client finds the
new master). The count over many failovers, with and without the setting, is
`python -m bench failover`."""

from __future__ import annotations

import time

import pytest
import redis
from redis.exceptions import RedisClusterException

from application.games.service import GameService
from devtools.redis_cluster import RedisClusterHarness
from store import keys
from store.core.cache import RecordCache
from store.core.connection import store_client
from store.games.durability import Durability
from tests.store import toy_game

pytestmark = [pytest.mark.redis, pytest.mark.slow]

NODE_TIMEOUT_MS = 1000
RESUME_TIMEOUT_S = 30.0
STORE_ERRORS = (redis.RedisError, RedisClusterException)


def render(record, batch, seat):
    return {"version": record.version}


@pytest.fixture
def toy(monkeypatch):
    return toy_game.register(monkeypatch)


@pytest.fixture
def cluster():
    with RedisClusterHarness(replicas=1, node_timeout_ms=NODE_TIMEOUT_MS) as made:
        yield made


def play_first_legal(service, game_id, seat_tokens) -> int:
    """Play the mover's first legal move; the version it made (acknowledged)."""
    current, _, _ = service.load(game_id)
    move = current.rules.legal_moves(current.state, current.to_move)[0]
    service.play(game_id, seat_tokens[current.to_move], move, render)
    return service.store.length(game_id)


def test_an_acknowledged_move_survives_its_masters_death_and_play_resumes(cluster, toy):
    client = store_client(cluster.url.replace("redis://", "redis+cluster://"))
    service = GameService(client, RecordCache())
    service.committer.durability = Durability(replicas=1, wait_ms=2000)
    record, seat_tokens, _ = service.create(toy, [{"name": "a"}, {"name": "b"}], {"turns_each": 3})
    game_id = record.game_id
    acknowledged = play_first_legal(service, game_id, seat_tokens)
    entries = client.lrange(keys.log(game_id), 0, -1)

    dead = cluster.master_for_key(keys.log(game_id))
    dead.kill()
    # As a supervisor would, once the replica took over (restarted sooner, a master without
    # persistence would come back empty and its replica would copy that): the dead node
    # rejoins as the new master's replica, which the next move's WAIT needs.
    cluster.wait_for_failover(dead)
    dead.start()
    started = time.monotonic()
    while True:  # the service alone finds the promoted replica: no restart, no new client
        try:
            resumed = play_first_legal(service, game_id, seat_tokens)
            break
        except STORE_ERRORS:
            if time.monotonic() - started > RESUME_TIMEOUT_S:
                raise

    assert cluster.master_for_key(keys.log(game_id)) is not dead
    assert resumed > acknowledged
    assert client.lrange(keys.log(game_id), 0, acknowledged - 1) == entries
    client.close()
