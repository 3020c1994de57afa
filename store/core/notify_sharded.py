"""Sharded pub/sub on a Redis Cluster (Redis >= 7): the wire of a store.core.notify.Subscriber.

A shard channel lives on the node owning its slot, and only that node delivers its
messages, so the wire holds one SSUBSCRIBE connection (a `_Link`) per node owning a channel
listened to, each read by its own background thread (a greenlet under gevent) that blocks
on its socket (no command sent) and stops after `linger_s` without a channel. redis-py's
`ClusterPubSub.get_sharded_message` reads its nodes in turn, each with the whole timeout, so
one idle node would delay another's message: hence a reader per node.

Topology changes: a link whose connection fails (a node died, failed over, or answered
MOVED), or whose node drops a channel (Redis sends SUNSUBSCRIBE when the channel's slot
moves away), hands its channels to `_repair`: refresh the cluster's slot map, subscribe each
channel on its new owner (retrying every `retry_s` while that fails), then tell the
channels' listeners to re-check the log. A notification is a hint: the listeners' own
safety re-check covers any gap.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time

import redis
from redis.exceptions import RedisClusterException

from store.core.codec import text

log = logging.getLogger(__name__)

OWN_UNSUBSCRIBE = "sunsubscribe"
FAILURES = (redis.RedisError, RedisClusterException, OSError)


class _Link:
    """One node's sharded pub/sub connection and the channels subscribed on it."""

    def __init__(self, name: str, pubsub):
        self.name = name
        self.pubsub = pubsub
        self.channels: set[str] = set()
        self.idle_since = time.monotonic()
        self.closed = False

    def close(self) -> None:
        self.closed = True
        with contextlib.suppress(*FAILURES):
            self.pubsub.close()


class ShardedWire:
    """SSUBSCRIBE per owning node. `subscribe` and `unsubscribe` run with the subscriber's
    lock held (the wire shares it); the readers call the subscriber without it."""

    def __init__(self, subscriber, read_timeout_s: float, linger_s: float, retry_s: float):
        self.subscriber = subscriber
        self.cluster = subscriber.client
        self.lock = subscriber.lock
        self.read_timeout_s = read_timeout_s
        self.linger_s = linger_s
        self.retry_s = retry_s
        self._links: dict[str, _Link] = {}
        self._owner: dict[str, _Link] = {}  # channel -> the link it is subscribed on
        self._orphans: set[str] = set()  # channels listened to but subscribed nowhere
        self._repairing = False

    def subscribe(self, channel: str) -> None:
        if not self._subscribe(channel):
            self._orphan([channel])

    def unsubscribe(self, channel: str) -> None:
        link = self._owner.pop(channel, None)
        if link is None:
            return
        link.channels.discard(channel)
        if not link.channels:
            link.idle_since = time.monotonic()
        try:
            link.pubsub.sunsubscribe(channel)
        except FAILURES as error:
            log.warning("notify sunsubscribe %s failed: %s", channel, error)

    def close(self) -> None:
        """Close every link (lock held); their readers stop."""
        for link in list(self._links.values()):
            self._drop(link)

    def nodes(self) -> dict[str, list[str]]:
        """Node name -> the channels subscribed there (for tests and stats)."""
        with self.lock:
            return {name: sorted(link.channels) for name, link in self._links.items()}

    # ----- internals --------------------------------------------------------------------------

    def _subscribe(self, channel: str) -> bool:
        """SSUBSCRIBE `channel` on the node owning its slot, as the client's slot map says
        (lock held); False when that failed."""
        try:
            node = self.cluster.get_node_from_key(channel)
            link = self._links.get(node.name)
            if link is None or link.closed:
                link = self._open(node)
            link.pubsub.ssubscribe(channel)
        except FAILURES as error:
            log.warning("notify ssubscribe %s failed: %s", channel, error)
            return False
        link.channels.add(channel)
        self._owner[channel] = link
        return True

    def _open(self, node) -> _Link:
        """A link to `node` and its reader (lock held)."""
        pubsub = self.cluster.get_redis_connection(node).pubsub()
        link = self._links[node.name] = _Link(node.name, pubsub)
        threading.Thread(
            target=self._read, args=(link,), name=f"notify-reader-{node.name}", daemon=True
        ).start()
        return link

    def _read(self, link: _Link) -> None:
        while True:
            with self.lock:
                if link.closed:
                    return
                if not link.channels and time.monotonic() - link.idle_since > self.linger_s:
                    self._drop(link)
                    return
            try:
                message = link.pubsub.get_message(timeout=self.read_timeout_s)
            except Exception as error:  # a reader must outlive any failure
                if link.closed:
                    return
                log.warning("notify reader of %s lost its connection: %s", link.name, error)
                with self.lock:
                    channels = self._drop(link)
                    self._orphan(channels)
                self.subscriber.lost(channels)
                return
            if message is not None:
                self._handle(link, message)

    def _handle(self, link: _Link, message: dict) -> None:
        kind, channel = message.get("type"), text(message.get("channel") or b"")
        if kind == "smessage":
            self.subscriber.dispatch(channel, message["data"])
        elif kind == "ssubscribe":
            self.subscriber.confirm(channel)
        elif kind == OWN_UNSUBSCRIBE:
            with self.lock:  # still ours: the node dropped it (its slot moved away)
                moved = self._owner.get(channel) is link
                if moved:
                    del self._owner[channel]
                    link.channels.discard(channel)
                    self._orphan([channel])
            if moved:
                self.subscriber.lost([channel])

    def _drop(self, link: _Link) -> list[str]:
        """Close `link` and forget it (lock held); the channels that were subscribed on it."""
        if self._links.get(link.name) is link:
            del self._links[link.name]
        channels = [c for c in link.channels if self._owner.get(c) is link]
        for channel in channels:
            del self._owner[channel]
        link.channels.clear()
        link.close()
        return channels

    def _orphan(self, channels: list[str]) -> None:
        """Hand `channels` to the one repair thread, started when none runs (lock held)."""
        self._orphans.update(channels)
        if channels and not self._repairing:
            self._repairing = True
            threading.Thread(target=self._repair, name="notify-repair", daemon=True).start()

    def _repair(self) -> None:
        """Subscribe the orphaned channels on their owners after a fresh look at the slot
        map, every `retry_s` until none is left; then their listeners re-check (messages
        may have been lost meanwhile)."""
        while True:
            time.sleep(self.retry_s)
            try:
                self.cluster.nodes_manager.initialize()
                refreshed = True
            except FAILURES as error:
                log.warning("notify: the cluster's slot map could not be read: %s", error)
                refreshed = False
            with self.lock:
                listened = self.subscriber.listeners
                wanted = [c for c in self._orphans if c in listened and c not in self._owner]
                failed = [c for c in wanted if not (refreshed and self._subscribe(c))]
                self._orphans = set(failed)
                self._repairing = bool(failed)
            self.subscriber.lost([c for c in wanted if c not in failed])
            if not failed:
                return
