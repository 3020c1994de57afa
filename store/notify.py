"""Notifications that a game's log grew: a hint, never the truth (ARCHITECTURE.md).

`publish` tells the game's channel and each seated account's channel (store.keys) of a new
version, one round trip after a commit. A `Subscriber` is one pub/sub connection of one
process, read by one background thread (a greenlet under gevent), started on first use and
stopped when nobody has listened for a while; a `Listener` of a channel is woken when a
message arrives on it. A waiter re-reads the log after waking and re-checks on its own every
few seconds, so a lost message costs latency, never an event. While it waits, a listener sends
Redis nothing.

Channels are plain pub/sub (PUBLISH/SUBSCRIBE), which a Redis Cluster broadcasts to every node.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Iterable

import orjson
import redis
from redis.cluster import RedisCluster

from store import keys
from store.codec import text

log = logging.getLogger(__name__)

READ_TIMEOUT_S = 5.0  # one wait on the socket (no command sent)
CONFIRM_TIMEOUT_S = 2.0  # how long `listen` waits for Redis to confirm a subscription
LINGER_S = 30.0  # the reader stops after this long without a listener
RETRY_S = 0.5
MAX_PENDING = 1000  # payloads one listener keeps before it only says "re-check everything"


def channels_of(game_id: str, accounts: Iterable[str]) -> list[str]:
    """The game's channel and the channel of each (distinct) seated account."""
    folded = dict.fromkeys(a.lower() for a in accounts if a)
    return [keys.game_channel(game_id), *(keys.account_channel(a) for a in folded)]


def message(record) -> bytes:
    """The notification of a game's new version: `{"game", "version"}`."""
    return orjson.dumps({"game": record.game_id, "version": record.version})


def publish(client: redis.Redis, game_id: str, version: int, accounts: Iterable[str]) -> None:
    """Tell the game's and its accounts' channels of `version` (one round trip; a failure is
    logged, never raised: the log already holds the version). store.commit sends it with
    the commit itself on a standalone Redis."""
    payload = orjson.dumps({"game": game_id, "version": version})
    try:
        channels = channels_of(game_id, accounts)
        if isinstance(client, RedisCluster):
            for channel in channels:
                client.publish(channel, payload)
            return
        pipe = client.pipeline(transaction=False)
        for channel in channels:
            pipe.publish(channel, payload)
        pipe.execute()
    except redis.RedisError as error:
        log.warning("notification of %s v%d not sent: %s", game_id, version, error)


class Listener:
    """Wakes on the messages of one channel; use as a context manager (closing unsubscribes
    when it was the channel's last listener)."""

    def __init__(self, subscriber: Subscriber, channel: str):
        self.subscriber = subscriber
        self.channel = channel
        self._woken = threading.Event()
        self._lock = threading.Lock()
        self._pending: list[dict | None] = []

    def deliver(self, payload: dict | None) -> None:
        """A message (None: messages may have been lost, re-check everything)."""
        with self._lock:
            if len(self._pending) >= MAX_PENDING:
                self._pending = [None]
            else:
                self._pending.append(payload)
        self._woken.set()

    def wait(self, timeout_s: float) -> list[dict | None] | None:
        """The payloads received since the last wait, waiting up to `timeout_s` for one;
        None when none came in time."""
        if not self._woken.wait(max(0.0, timeout_s)):
            return None
        with self._lock:
            self._woken.clear()
            pending, self._pending = self._pending, []
        return pending

    def close(self) -> None:
        self.subscriber.remove(self)

    def __enter__(self) -> Listener:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


class Subscriber:
    """One pub/sub connection per process, shared by every listener."""

    def __init__(self, client: redis.Redis, confirm_timeout_s: float = CONFIRM_TIMEOUT_S):
        self.client = client
        self.confirm_timeout_s = confirm_timeout_s
        self._lock = threading.Lock()
        self._listeners: dict[str, set[Listener]] = {}
        self._confirmed: dict[str, threading.Event] = {}
        self._pubsub = None
        self._thread: threading.Thread | None = None
        self._pid = os.getpid()
        self._idle_since = time.monotonic()

    def listen(self, channel: str) -> Listener:
        """A listener of `channel`, returned once Redis confirmed the subscription (or after
        CONFIRM_TIMEOUT_S: the caller's own re-checks then cover the gap)."""
        listener = Listener(self, channel)
        with self._lock:
            self._start()
            group = self._listeners.setdefault(channel, set())
            group.add(listener)
            confirmed = self._confirmed.get(channel)
            if confirmed is None:
                confirmed = self._confirmed[channel] = threading.Event()
                self._send("subscribe", channel)
        confirmed.wait(self.confirm_timeout_s)
        return listener

    def remove(self, listener: Listener) -> None:
        with self._lock:
            group = self._listeners.get(listener.channel)
            if group is None:
                return
            group.discard(listener)
            if not group:
                del self._listeners[listener.channel]
                self._confirmed.pop(listener.channel, None)
                self._send("unsubscribe", listener.channel)
                if not self._listeners:
                    self._idle_since = time.monotonic()

    def listening(self) -> int:
        """The number of channels listened to (for tests and stats)."""
        with self._lock:
            return len(self._listeners)

    # ----- the reader ------------------------------------------------------------------------

    def _start(self) -> None:
        """Start the reader when it is not running (called with the lock held)."""
        if self._pid != os.getpid():  # a forked child: nothing of the parent's is ours
            self._pid, self._pubsub, self._thread = os.getpid(), None, None
            self._listeners, self._confirmed = {}, {}
        if self._thread is not None and self._thread.is_alive():
            return
        self._pubsub = self.client.pubsub()
        self._thread = threading.Thread(target=self._read, name="notify-reader", daemon=True)
        self._thread.start()

    def _send(self, command: str, channel: str) -> None:
        """SUBSCRIBE or UNSUBSCRIBE on the shared connection (lock held); a failure is left
        to the reader, which reconnects and subscribes afresh."""
        try:
            getattr(self._pubsub, command)(channel)
        except (redis.RedisError, OSError) as error:
            log.warning("notify %s %s failed: %s", command, channel, error)

    def _read(self) -> None:
        while True:
            with self._lock:
                if not self._listeners and time.monotonic() - self._idle_since > LINGER_S:
                    self._close_pubsub()
                    self._thread = None
                    return
                pubsub = self._pubsub
            try:
                message = pubsub.get_message(timeout=READ_TIMEOUT_S)
            except (redis.RedisError, OSError, RuntimeError) as error:
                log.warning("notify reader lost its connection: %s", error)
                self._reconnect()
                continue
            if message is not None:
                self._dispatch(message)

    def _dispatch(self, message: dict) -> None:
        kind, channel = message.get("type"), text(message.get("channel") or b"")
        with self._lock:
            if kind == "subscribe":
                confirmed = self._confirmed.get(channel)
                if confirmed is not None:
                    confirmed.set()
                return
            if kind != "message":
                return
            group = list(self._listeners.get(channel, ()))
        try:
            payload = orjson.loads(message["data"])
        except orjson.JSONDecodeError:
            payload = None
        for listener in group:
            listener.deliver(payload if isinstance(payload, dict) else None)

    def _reconnect(self) -> None:
        """A fresh connection subscribed to every channel listened to; every listener is
        told to re-check (messages may have been lost meanwhile)."""
        time.sleep(RETRY_S)
        with self._lock:
            self._close_pubsub()
            self._pubsub = self.client.pubsub()
            channels = list(self._listeners)
            self._confirmed = {channel: threading.Event() for channel in channels}
            if channels:
                try:
                    self._pubsub.subscribe(*channels)
                except (redis.RedisError, OSError) as error:
                    log.warning("notify resubscribe failed: %s", error)
            listeners = [listener for group in self._listeners.values() for listener in group]
        for listener in listeners:
            listener.deliver(None)

    def _close_pubsub(self) -> None:
        if self._pubsub is None:
            return
        with contextlib.suppress(redis.RedisError, OSError):
            self._pubsub.close()
        self._pubsub = None
