"""Notifications that a game's log grew: a hint, never the truth (ARCHITECTURE.md).

`publish` tells the game's channel and each seated account's channel (store.keys) of a new
version, one round trip after a commit. A `Subscriber` is the pub/sub side of one process,
started on first use and stopped when nobody has listened for a while; a `Listener` of a
channel is woken when a message arrives on it. A waiter re-reads the log after waking and
re-checks on its own every few seconds, so a lost message costs latency, never an event.
While it waits, a listener sends Redis nothing.

The wire depends on the server, asked once per client (`sharded`):
- a standalone Redis: PUBLISH (inside the commit's script, store.games.commit) and SUBSCRIBE on one
  connection read by one background thread (a greenlet under gevent);
- a Redis Cluster of Redis >= 7: sharded pub/sub. SPUBLISH goes to the node owning the
  channel's slot (a game's channel lives in its game's slot, store.keys), and the subscriber
  holds one SSUBSCRIBE connection per node owning a channel it listens to
  (store.core.notify_sharded);
- a Redis Cluster of Redis < 7 (no SPUBLISH): plain PUBLISH/SUBSCRIBE, which the cluster
  broadcasts to every node.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
import weakref
from collections.abc import Iterable

import orjson
import redis
from redis.cluster import RedisCluster
from redis.exceptions import RedisClusterException

from store import keys
from store.core.codec import text
from store.core.notify_sharded import ShardedWire

log = logging.getLogger(__name__)

FAILURES = (redis.RedisError, RedisClusterException, OSError)  # what talking to Redis raises

READ_TIMEOUT_S = 5.0  # one wait on the socket (no command sent)
CONFIRM_TIMEOUT_S = 2.0  # how long `listen` waits for Redis to confirm a subscription
LINGER_S = 30.0  # the reader stops after this long without a listener
RETRY_S = 0.5
MAX_PENDING = 1000  # payloads one listener keeps before it only says "re-check everything"
SHARDED_MAJOR = 7  # the first Redis with SPUBLISH / SSUBSCRIBE

_sharded_by_client: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_sharded_lock = threading.Lock()


def sharded(client: redis.Redis | RedisCluster) -> bool:
    """True when `client` is a Redis Cluster whose every primary has sharded pub/sub (Redis
    >= 7); asked once per client (INFO server of the primaries), then remembered. A
    standalone Redis: False, asking nothing. Raises one of FAILURES when it cannot ask
    (nothing is remembered then)."""
    if not isinstance(client, RedisCluster):
        return False
    with _sharded_lock:
        known = _sharded_by_client.get(client)
    if known is None:
        infos = client.info("server", target_nodes=RedisCluster.PRIMARIES)
        majors = [int(str(info["redis_version"]).split(".")[0]) for info in infos.values()]
        known = bool(majors) and min(majors) >= SHARDED_MAJOR
        with _sharded_lock:
            _sharded_by_client[client] = known
    return known


def channels_of(game_id: str, accounts: Iterable[str]) -> list[str]:
    """The game's channel and the channel of each (distinct) seated account."""
    folded = dict.fromkeys(a.lower() for a in accounts if a)
    return [keys.game_channel(game_id), *(keys.account_channel(a) for a in folded)]


def message(record) -> bytes:
    """The notification of a game's new version: `{"game", "version"}`."""
    return orjson.dumps({"game": record.game_id, "version": record.version})


def publish(
    client: redis.Redis,
    game_id: str,
    version: int,
    accounts: Iterable[str],
    extra: Iterable[str] = (),
) -> None:
    """Tell the game's and its accounts' channels (and the `extra` ones) of `version` (one
    round trip; a failure is logged, never raised: the log already holds the version).
    store.games.commit sends it with the commit itself on a standalone Redis; on a cluster it
    comes after the commit: SPUBLISH (pipelined, each to the node owning its channel) or,
    before Redis 7, PUBLISH."""
    payload = orjson.dumps({"game": game_id, "version": version})
    try:
        tell(client, [*channels_of(game_id, accounts), *extra], payload)
    except FAILURES as error:
        log.warning("notification of %s v%d not sent: %s", game_id, version, error)


def key_replaced(client: redis.Redis, account: str) -> None:
    """Tell the account's channel that its key was replaced: whatever was opened with the
    old key re-checks its credential at once (the check, not this hint, decides; a failure
    is logged, never raised)."""
    payload = orjson.dumps({"account": account.lower(), "key_replaced": True})
    try:
        tell(client, [keys.account_channel(account.lower())], payload)
    except FAILURES as error:
        log.warning("notification of %s's new key not sent: %s", account, error)


def tell(client: redis.Redis, channels: list[str], payload: bytes) -> None:
    """PUBLISH (or SPUBLISH on a cluster with sharded pub/sub) `payload` to `channels` in one
    round trip; raises one of FAILURES."""
    if sharded(client):
        pipe = client.pipeline(transaction=False)
        for channel in channels:
            pipe.spublish(channel, payload)
        pipe.execute()
        return
    if isinstance(client, RedisCluster):
        for channel in channels:
            client.publish(channel, payload)
        return
    pipe = client.pipeline(transaction=False)
    for channel in channels:
        pipe.publish(channel, payload)
    pipe.execute()


def told_by_script(client: redis.Redis, channels: list[str], payload: bytes) -> None:
    """A hint a Lua script already PUBLISHed: told again with SPUBLISH where the listeners
    use sharded pub/sub (a cluster of Redis >= 7 delivers PUBLISH to SUBSCRIBE only); a
    failure is logged, never raised (the script's writes are the truth)."""
    try:
        if sharded(client):
            tell(client, channels, payload)
    except FAILURES as error:
        log.warning("notification on %s not sent: %s", channels, error)


class Listener:
    """Wakes on the messages of its channels (one, or a few: a stream of a game opened with
    an account key also hears the account's channel); use as a context manager (closing
    unsubscribes each channel of which it was the last listener)."""

    def __init__(self, subscriber: Subscriber, channels: tuple[str, ...]):
        self.subscriber = subscriber
        self.channels = channels
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
    """The listeners of one process and the wire that feeds them (chosen at first use:
    `PlainWire`, or `ShardedWire` on a Redis Cluster with sharded pub/sub)."""

    def __init__(self, client: redis.Redis, confirm_timeout_s: float = CONFIRM_TIMEOUT_S):
        self.client = client
        self.confirm_timeout_s = confirm_timeout_s
        self.lock = threading.Lock()  # shared with the wire
        self.listeners: dict[str, set[Listener]] = {}
        self._confirmed: dict[str, threading.Event] = {}
        self._wire: PlainWire | ShardedWire | None = None
        self._pid = os.getpid()

    @property
    def is_sharded(self) -> bool:
        """True once the wire in use is sharded pub/sub (for tests and stats)."""
        return isinstance(self._wire, ShardedWire)

    def listen(self, channel: str, *more: str) -> Listener:
        """A listener of `channel` (and of `more` channels), returned once Redis confirmed
        the subscriptions (or after CONFIRM_TIMEOUT_S: the caller's own re-checks then cover
        the gap)."""
        channels = tuple(dict.fromkeys((channel, *more)))
        listener = Listener(self, channels)
        waits = []
        with self.lock:
            try:
                wire = self._wire_of_process()
            except FAILURES as error:  # no wire yet: the listener's own re-checks cover it
                log.warning("notify: cannot tell which pub/sub to use: %s", error)
                for name in channels:
                    self.listeners.setdefault(name, set()).add(listener)
                return listener
            for name in channels:
                self.listeners.setdefault(name, set()).add(listener)
                confirmed = self._confirmed.get(name)
                if confirmed is None:
                    confirmed = self._confirmed[name] = threading.Event()
                    wire.subscribe(name)
                waits.append(confirmed)
        ends = time.monotonic() + self.confirm_timeout_s
        for confirmed in waits:
            confirmed.wait(max(0.0, ends - time.monotonic()))
        return listener

    def remove(self, listener: Listener) -> None:
        with self.lock:
            for name in listener.channels:
                group = self.listeners.get(name)
                if group is None:
                    continue
                group.discard(listener)
                if not group:
                    del self.listeners[name]
                    self._confirmed.pop(name, None)
                    if self._wire is not None:
                        self._wire.unsubscribe(name)

    def close(self) -> None:
        """Stop listening: every connection closed, every reader stopped (a later `listen`
        starts afresh)."""
        with self.lock:
            if self._wire is not None:
                self._wire.close()
            self._wire = None
            self.listeners, self._confirmed = {}, {}

    def listening(self) -> int:
        """The number of channels listened to (for tests and stats)."""
        with self.lock:
            return len(self.listeners)

    # ----- called by the wire (without the lock) ----------------------------------------------

    def confirm(self, channel: str) -> None:
        """Redis confirmed the subscription of `channel`."""
        with self.lock:
            confirmed = self._confirmed.get(channel)
        if confirmed is not None:
            confirmed.set()

    def dispatch(self, channel: str, data) -> None:
        """A message on `channel`: its payload to each of the channel's listeners."""
        with self.lock:
            group = list(self.listeners.get(channel, ()))
        try:
            payload = orjson.loads(data)
        except (orjson.JSONDecodeError, TypeError):
            payload = None
        for listener in group:
            listener.deliver(payload if isinstance(payload, dict) else None)

    def lost(self, channels: Iterable[str] | None = None) -> None:
        """Messages of `channels` (None: of every channel) may have been lost: their
        listeners re-check."""
        with self.lock:
            names = list(self.listeners) if channels is None else list(channels)
            group = [listener for name in names for listener in self.listeners.get(name, ())]
        for listener in group:
            listener.deliver(None)

    # ----- internals --------------------------------------------------------------------------

    def _wire_of_process(self) -> PlainWire | ShardedWire:
        """The wire of this process (lock held); a forked child starts afresh."""
        if self._pid != os.getpid():  # a forked child: nothing of the parent's is ours
            self._pid, self._wire = os.getpid(), None
            self.listeners, self._confirmed = {}, {}
        if self._wire is None:
            if sharded(self.client):
                self._wire = ShardedWire(self, READ_TIMEOUT_S, LINGER_S, RETRY_S)
            else:
                self._wire = PlainWire(self)
        return self._wire


class PlainWire:
    """SUBSCRIBE on one connection, read by one background thread that stops after LINGER_S
    without a listener. Its methods run with the subscriber's lock held."""

    def __init__(self, subscriber: Subscriber):
        self.subscriber = subscriber
        self.client = subscriber.client
        self.lock = subscriber.lock
        self._pubsub = None
        self._thread: threading.Thread | None = None
        self._idle_since = time.monotonic()
        self._closed = False

    def close(self) -> None:
        """Close the connection; the reader stops."""
        self._closed = True
        self._close_pubsub()

    def subscribe(self, channel: str) -> None:
        self._start()
        self._send("subscribe", channel)

    def unsubscribe(self, channel: str) -> None:
        self._send("unsubscribe", channel)
        if not self.subscriber.listeners:
            self._idle_since = time.monotonic()

    def _start(self) -> None:
        """Start the reader when it is not running."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._pubsub = self.client.pubsub()
        self._thread = threading.Thread(target=self._read, name="notify-reader", daemon=True)
        self._thread.start()

    def _send(self, command: str, channel: str) -> None:
        """SUBSCRIBE or UNSUBSCRIBE on the shared connection; a failure is left to the
        reader, which reconnects and subscribes afresh."""
        if self._pubsub is None:
            return
        try:
            getattr(self._pubsub, command)(channel)
        except (redis.RedisError, OSError) as error:
            log.warning("notify %s %s failed: %s", command, channel, error)

    def _read(self) -> None:
        while True:
            with self.lock:
                if self._closed:
                    return
                idle = time.monotonic() - self._idle_since > LINGER_S
                if not self.subscriber.listeners and idle:
                    self._close_pubsub()
                    self._thread = None
                    return
                pubsub = self._pubsub
            try:
                message = pubsub.get_message(timeout=READ_TIMEOUT_S)
            except Exception as error:  # a reader must outlive any failure
                if self._closed:
                    return
                log.warning("notify reader lost its connection: %s", error)
                self._reconnect()
                continue
            if message is None:
                continue
            kind, channel = message.get("type"), text(message.get("channel") or b"")
            if kind == "subscribe":
                self.subscriber.confirm(channel)
            elif kind == "message":
                self.subscriber.dispatch(channel, message["data"])

    def _reconnect(self) -> None:
        """A fresh connection subscribed to every channel listened to; every listener is
        told to re-check (messages may have been lost meanwhile)."""
        time.sleep(RETRY_S)
        with self.lock:
            if self._closed:
                return
            self._close_pubsub()
            self._pubsub = self.client.pubsub()
            channels = list(self.subscriber.listeners)
            if channels:
                try:
                    self._pubsub.subscribe(*channels)
                except (redis.RedisError, OSError) as error:
                    log.warning("notify resubscribe failed: %s", error)
        self.subscriber.lost()

    def _close_pubsub(self) -> None:
        if self._pubsub is None:
            return
        with contextlib.suppress(redis.RedisError, OSError):
            self._pubsub.close()
        self._pubsub = None
