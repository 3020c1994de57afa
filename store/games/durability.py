"""A move acknowledged only once replicas hold it: WAIT after the append, on its connection.

Redis replicates asynchronously: a master that dies right after answering an append may take
the append with it, and its promoted replica never saw it. With KELTIS_DURABLE_REPLICAS=n
(n >= 1), the commit sends `WAIT n KELTIS_DURABLE_WAIT_MS` right behind the append script, in
the same round trip and on the same connection (WAIT counts the replicas that acknowledged
that connection's last write, so it must follow the write on its own socket). On a Redis
Cluster that connection is the master owning the game's slot; a failover met on the way
(a refused connection, MOVED, CLUSTERDOWN) is followed by a fresh slot map and another try.

Short of `n` replicas in time the commit raises `NotDurable`, a `redis.RedisError`, so the
API answers 503 as for any store failure: the move may stand on the master, as after a
connection lost mid-commit. A client re-sending it with the same idempotency key gets the
first answer; one that re-reads the game sees whether it stands. An acknowledgement
therefore always means "on the master and on n replicas".
"""

from __future__ import annotations

import contextlib
import time

import redis
from redis.cluster import RedisCluster
from redis.exceptions import (
    AskError,
    ClusterDownError,
    MovedError,
    NoScriptError,
    RedisClusterException,
    TryAgainError,
)

import settings
from gamelog.record import GameRecord
from store.core.roundtrip import Batch
from store.games.eventstore import AppendRequest, AppendResult, AppendStatus, EventStore

# A failover takes the cluster's node timeout plus an election: tries spaced out up to
# RETRY_CAP_S, ATTEMPTS in all (about 7 s), as redis-py's own cluster retries would.
ATTEMPTS = 12
RETRY_FIRST_S = 0.05
RETRY_CAP_S = 1.0
# Replies and errors that mean "the slot's master is elsewhere, or being elected".
TOPOLOGY_ERRORS = (MovedError, AskError, ClusterDownError, TryAgainError)
UNREACHABLE = (redis.ConnectionError, redis.TimeoutError, RedisClusterException)
ACKNOWLEDGED = (AppendStatus.OK, AppendStatus.DUPLICATE)


class NotDurable(redis.RedisError):
    """A commit reached fewer replicas than KELTIS_DURABLE_REPLICAS in time (not
    acknowledged: the API's 503; the move may stand on the master)."""

    def __init__(self, result: AppendResult, game_id: str, wanted: int, reached: int):
        super().__init__(f"game {game_id}: {reached} of {wanted} replicas acknowledged in time")
        self.result, self.game_id, self.wanted, self.reached = result, game_id, wanted, reached


class Durability:
    """How many replicas a commit waits for (0: none) and how long."""

    def __init__(self, replicas: int | None = None, wait_ms: int | None = None):
        configured = settings.current()
        self.replicas = configured.durable_replicas if replicas is None else replicas
        self.wait_ms = configured.durable_wait_ms if wait_ms is None else wait_ms

    @property
    def on(self) -> bool:
        return self.replicas > 0

    def command(self) -> tuple:
        """The WAIT to send behind a write."""
        return ("WAIT", self.replicas, self.wait_ms)

    def check_result(self, result: AppendResult, game_id: str, reached) -> None:
        """Raise NotDurable when `result` would acknowledge a move (appended, or the first
        answer of a repeat) and `reached` (WAIT's reply) is short; a refused append
        acknowledges nothing."""
        if result.status not in ACKNOWLEDGED:
            return
        if isinstance(reached, Exception):
            raise reached
        if int(reached) < self.replicas:
            raise NotDurable(result, game_id, self.replicas, int(reached))


def append_on_cluster(
    cluster: RedisCluster,
    store: EventStore,
    durability: Durability,
    request: AppendRequest,
    after: GameRecord | None,
) -> AppendResult:
    """The append script then WAIT, in one round trip on the connection of the master owning
    the game's slot; retried over a failover (a repeat of an append that did happen finds
    the log moved on: CONFLICT, or DUPLICATE with an idempotency key, never a second copy)."""
    script_keys, args = store.script_call(request, after)
    script = store.append_script
    for attempt in range(ATTEMPTS):
        try:
            node = cluster.get_node_from_key(script_keys[0])
            batch = Batch(cluster.get_redis_connection(node))
            batch.evalsha(script.sha, len(script_keys), *script_keys, *args)
            batch.commands.append(durability.command())
            reply, reached = batch.execute(raise_on_error=False)
        except UNREACHABLE as error:
            failure: Exception = error
        else:
            if isinstance(reply, NoScriptError):  # nothing ran: load it there, send again
                cluster.get_redis_connection(node).script_load(script.script)
                continue
            if not isinstance(reply, TOPOLOGY_ERRORS):
                if isinstance(reply, Exception):
                    raise reply
                result = store.result_of(reply)
                durability.check_result(result, request.game_id, reached)
                return result
            failure = reply
        if attempt == ATTEMPTS - 1:
            raise failure
        time.sleep(min(RETRY_CAP_S, RETRY_FIRST_S * 2**attempt))
        _refresh(cluster)
    raise NoScriptError("the append script could not be loaded")


def _refresh(cluster: RedisCluster) -> None:
    """A fresh slot map (a failure is left to the next try)."""
    with contextlib.suppress(*UNREACHABLE):
        cluster.nodes_manager.initialize()
