"""The `cluster_too` mark (tests.support.fixtures): its cluster run really stores on the
cluster (the app's writes are found by `redis_client`, a RedisCluster there), with RQ on a
standalone server beside it."""

from __future__ import annotations

import pytest
import redis
from redis.cluster import RedisCluster

import settings
from store import keys

pytestmark = pytest.mark.redis


@pytest.mark.cluster_too
def test_a_cluster_run_writes_to_the_cluster(client, redis_client, store_kind):
    players = [{"name": "ann"}, {"name": "bea"}]
    made = client.post("/v1/games", json={"game": "keltis-card", "players": players})
    assert made.status_code == 201
    assert isinstance(redis_client, RedisCluster) == (store_kind == "cluster")
    assert redis_client.exists(keys.log(made.json["id"]))
    if store_kind == "cluster":
        queue = redis.Redis.from_url(settings.current().rq_redis_url)
        assert queue.ping() and not queue.exists(keys.log(made.json["id"]))
        queue.close()
