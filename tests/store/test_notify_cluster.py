"""Notifications on a real Redis Cluster (store.core.notify, store.core.notify_sharded): sharded
pub/sub
on Redis >= 7 (one SSUBSCRIBE link per node owning a channel listened to, surviving a slot
move and a node's restart), plain pub/sub on Redis 6.2 (no SPUBLISH), detected once."""

from __future__ import annotations

import time
import uuid

import pytest
from redis.crc import key_slot

from devtools.redis_cluster import RedisClusterHarness
from store import keys
from store.core import notify
from tests.support.fixtures import redis7_binary

pytestmark = pytest.mark.redis

WAKE_S = 3.0  # under the waiters' 5 s safety re-check; 1 s was tight on a loaded machine


def game_ids(count: int) -> list[str]:
    return [f"g{uuid.uuid4().hex}" for _ in range(count)]


def woken(listener, game_id: str, version: int) -> float:
    """Seconds until `listener` heard of `version` (fails after WAKE_S)."""
    started = time.monotonic()
    while time.monotonic() - started < WAKE_S:
        got = listener.wait(WAKE_S)
        if got and {"game": game_id, "version": version} in got:
            return time.monotonic() - started
    pytest.fail(f"no notification of {game_id} v{version} within {WAKE_S} s")


def command_calls(server, command: str) -> int:
    stats = server.client().info("commandstats").get(f"cmdstat_{command}")
    return stats["calls"] if stats else 0


@pytest.fixture
def subscriber(redis7_cluster):
    made = notify.Subscriber(redis7_cluster.client())
    yield made
    made.close()


def test_a_cluster_of_redis_7_is_sharded_and_a_standalone_redis_asks_nothing(
    redis7_cluster, redis_client
):
    assert notify.sharded(redis7_cluster.client()) is True
    assert notify.sharded(redis_client) is False


def test_the_subscriber_holds_one_link_per_node_owning_a_channel(redis7_cluster, subscriber):
    ids = game_ids(12)
    listeners = [subscriber.listen(keys.game_channel(g)) for g in ids]
    assert subscriber.is_sharded
    owners = {redis7_cluster.node_for_key(keys.game_channel(g)).port for g in ids}
    links = subscriber._wire.nodes()
    assert {int(name.rsplit(":", 1)[1]) for name in links} == owners
    for game_id in ids:  # each channel subscribed on its owner, and only there
        channel = keys.game_channel(game_id)
        for node in redis7_cluster.nodes:
            counted = node.client().execute_command("PUBSUB", "SHARDNUMSUB", channel)[1]
            assert counted == (1 if node is redis7_cluster.node_for_key(channel) else 0)
    for listener in listeners:
        listener.close()
    assert subscriber.listening() == 0


def test_spublish_reaches_the_game_and_account_channels_on_their_own_nodes(
    redis7_cluster, subscriber
):
    client = redis7_cluster.client()
    game_id, account = game_ids(1)[0], f"acc{uuid.uuid4().hex[:8]}"
    owners = [
        redis7_cluster.node_for_key(channel)
        for channel in (keys.game_channel(game_id), keys.account_channel(account.lower()))
    ]

    def calls(command: str) -> dict[int, int]:
        return {node.port: command_calls(node, command) for node in redis7_cluster.nodes}

    spublished, published = calls("spublish"), calls("publish")
    with (
        subscriber.listen(keys.game_channel(game_id)) as game,
        subscriber.listen(keys.account_channel(account.lower())) as mine,
    ):
        notify.publish(client, game_id, 7, [account])
        assert woken(game, game_id, 7) < WAKE_S
        assert woken(mine, game_id, 7) < WAKE_S
    for owner in owners:  # one SPUBLISH per channel, each on the node owning it
        spublished[owner.port] += 1
    assert calls("spublish") == spublished
    assert calls("publish") == published  # no broadcast


def test_a_listener_follows_its_channel_when_the_slot_moves_to_another_node(
    redis7_cluster, subscriber
):
    client = redis7_cluster.client()
    game_id = game_ids(1)[0]
    channel = keys.game_channel(game_id)
    slot = key_slot(channel.encode())
    home = redis7_cluster.node_for_key(channel)
    target = next(node for node in redis7_cluster.nodes if node is not home)
    target_id = target.client().execute_command("CLUSTER", "MYID")
    home_id = home.client().execute_command("CLUSTER", "MYID")
    with subscriber.listen(channel) as listener:
        try:
            for node in (target, home, *redis7_cluster.nodes):  # the empty slot changes hands
                node.client().execute_command("CLUSTER", "SETSLOT", slot, "NODE", target_id)
            assert listener.wait(3.0) == [None]  # told to re-check: messages may be lost
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and subscriber._wire.nodes().get(
                f"127.0.0.1:{target.port}", []
            ) != [channel]:
                time.sleep(0.05)
            assert subscriber._wire.nodes()[f"127.0.0.1:{target.port}"] == [channel]
            notify.publish(client, game_id, 2, [])
            assert woken(listener, game_id, 2) < WAKE_S
        finally:
            for node in (home, *redis7_cluster.nodes):
                node.client().execute_command("CLUSTER", "SETSLOT", slot, "NODE", home_id)
            redis7_cluster.wait_until_ok()
            client.nodes_manager.initialize()


def test_a_listener_resubscribes_after_its_node_restarts():
    with RedisClusterHarness(binary=redis7_binary()) as cluster:
        client = cluster.client()
        subscriber = notify.Subscriber(client)
        game_id = game_ids(1)[0]
        owner = cluster.node_for_key(keys.game_channel(game_id))
        try:
            with subscriber.listen(keys.game_channel(game_id)) as listener:
                owner.kill()
                assert listener.wait(3.0) == [None]  # the link broke: re-check the log
                owner.start()
                cluster.wait_until_ok()
                deadline = time.monotonic() + 10
                while time.monotonic() < deadline:
                    if listener.wait(0.5) == [None]:  # subscribed again on the owner
                        break
                notify.publish(client, game_id, 3, [])
                assert woken(listener, game_id, 3) < WAKE_S
        finally:
            subscriber.close()


def test_a_redis_6_cluster_falls_back_to_plain_pub_sub(redis_cluster):
    client = redis_cluster.client()
    assert notify.sharded(client) is False
    subscriber = notify.Subscriber(client)
    game_id = game_ids(1)[0]
    published = sum(command_calls(node, "publish") for node in redis_cluster.nodes)
    try:
        with subscriber.listen(keys.game_channel(game_id)) as listener:
            assert not subscriber.is_sharded
            notify.publish(client, game_id, 4, [])
            assert woken(listener, game_id, 4) < WAKE_S
    finally:
        subscriber.close()
    assert sum(command_calls(node, "publish") for node in redis_cluster.nodes) == published + 1
