"""The RedisClusterHarness: a real 3-master cluster, Lua under hash tags, CROSSSLOT across them."""

from __future__ import annotations

import subprocess

import pytest
from redis.cluster import RedisCluster
from redis.exceptions import ClusterCrossSlotError, RedisClusterException

from devtools.redis_binaries import redis_cli_path
from devtools.redis_cluster import SLOT_COUNT, cluster_info, split_slots

pytestmark = pytest.mark.redis

APPEND_BOTH = """
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('INCR', KEYS[2])
return {redis.call('LLEN', KEYS[1]), tonumber(redis.call('GET', KEYS[2]))}
"""


def _tag_on_another_node(cluster, key: str) -> str:
    """A key whose hash tag lives on a different node than `key`."""
    home = cluster.node_for_key(key)
    for index in range(1000):
        other = f"{{g{index}}}:log"
        if cluster.node_for_key(other) is not home:
            return other
    raise LookupError("every tag maps to one node")


def test_slots_are_split_like_redis_cli_does():
    assert split_slots(3) == [range(0, 5461), range(5461, 10923), range(10923, 16384)]


def test_cluster_has_three_masters_sharing_all_slots(redis_cluster):
    for node in redis_cluster.nodes:
        info = cluster_info(node.client())
        assert info["cluster_state"] == "ok"
        assert info["cluster_size"] == "3"
        assert info["cluster_slots_assigned"] == str(SLOT_COUNT)
    client = RedisCluster.from_url(redis_cluster.url)
    try:
        assert {node.port for node in client.get_primaries()} == {
            node.port for node in redis_cluster.nodes
        }
    finally:
        client.close()


def test_redis_cli_beside_redis_server_checks_the_cluster(redis_cluster):
    check = subprocess.run(
        [str(redis_cli_path()), "--cluster", "check", f"127.0.0.1:{redis_cluster.nodes[0].port}"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )

    assert check.returncode == 0, check.stdout + check.stderr
    assert "[OK] All 16384 slots covered." in check.stdout


def test_lua_script_over_keys_sharing_a_hash_tag_runs_on_the_cluster(redis_cluster):
    client = redis_cluster.client(decode_responses=True)
    log, version = "{g123}:log", "{g123}:version"

    first = client.eval(APPEND_BOTH, 2, log, version, "e1")
    second = client.eval(APPEND_BOTH, 2, log, version, "e2")

    assert (first, second) == ([1, 1], [2, 2])
    owner = redis_cluster.node_for_key(log).client(decode_responses=True)
    assert owner.lrange(log, 0, -1) == ["e1", "e2"]
    assert owner.execute_command("CLUSTER", "KEYSLOT", log) == owner.execute_command(
        "CLUSTER", "KEYSLOT", version
    )


def test_different_hash_tags_land_on_different_nodes_and_a_script_across_them_fails(
    redis_cluster,
):
    client = redis_cluster.client()
    here = "{g123}:log"
    there = _tag_on_another_node(redis_cluster, here)
    client.rpush(here, "a")
    client.rpush(there, "b")
    home, away = redis_cluster.node_for_key(here), redis_cluster.node_for_key(there)

    assert home.client().exists(here) == 1
    assert away.client().exists(there) == 1
    assert home.client().execute_command("CLUSTER", "COUNTKEYSINSLOT", _slot(home, there)) == 0
    with pytest.raises(ClusterCrossSlotError):  # the server's CROSSSLOT reply
        home.client().eval(APPEND_BOTH, 2, here, there, "x")
    with pytest.raises(RedisClusterException, match="same key slot"):
        client.eval(APPEND_BOTH, 2, here, there, "x")  # redis-py refuses before sending


def _slot(node, key: str) -> int:
    return node.client().execute_command("CLUSTER", "KEYSLOT", key)
