"""One game's new entries for every stream of it in this process: one subscription, one
read of the log per notification, one keep-alive tick (as lichess's lila-ws fans a game out
from one subscription per process).

A `GameFeed` exists while a stream of its game is open here. Its reader (a thread: a
greenlet under gevent) waits on the game's channel; on a notification it reads the new
entries once and publishes them as a `Page`, which every stream of the game takes as it is
(each redacts and encodes it for its viewer, and a page keeps one encoding per viewer,
`Page.encoded`, so a spectator's line is serialised once for all spectators). With no
notification for a keep-alive interval it re-checks the log (the safety re-check, once for
the game, not once per stream) and ticks: each stream sends its keep-alive then. A waiting
stream holds no timer and no subscription of its own, and a slow stream delays nobody: it
reads the feed's recent pages when it gets to them, or the log when it fell behind them.
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field

from application.games.service import GameService
from gamelog.entries import Entry
from gamelog.record import GameRecord
from store import keys

log = logging.getLogger(__name__)

RECENT = 64  # pages a feed keeps for streams that fall behind
PAGE = 200  # entries read at once


@dataclass(slots=True)
class Page:
    """Entries after version `after` with the record they belong to; `encoded` holds what
    the API made of them per viewer (filled by the first stream of each viewer)."""

    after: int
    entries: list[Entry]
    record: GameRecord
    encoded: dict = field(default_factory=dict)

    @property
    def last(self) -> int:
        return self.entries[-1].n if self.entries else self.after

    def since(self, after: int) -> Page:
        """The part of this page after version `after` (itself when it starts there)."""
        if after <= self.after:
            return self
        return Page(after, [e for e in self.entries if e.n > after], self.record)


@dataclass(slots=True)
class Cursor:
    """Where a stream is in its feed: the feed's generation it has seen."""

    generation: int
    ticks: int


class FeedFailed(RuntimeError):
    """The feed could not read the game's log (the streams of the game end, as a stream
    whose own read fails does)."""


class GameFeed:
    """The newest pages of one game, refreshed by one reader for all its streams here."""

    def __init__(self, feeds: Feeds, game_id: str):
        self.feeds = feeds
        self.game_id = game_id
        self.lock = threading.Lock()
        self.members = 0
        self.keepalives: dict[float, int] = {}  # keep-alive interval -> streams asking it
        self.version = -1  # the newest version read
        self.pages: list[Page] = []
        self.generation = 0
        self.ticks = 0
        self.failure: BaseException | None = None
        self.changed = threading.Event()  # set (and replaced) at each new generation
        self.listener = None
        self.reader: threading.Thread | None = None
        self.ready = threading.Event()  # set once the first stream started the feed
        self.stopped = False

    # ----- streams ------------------------------------------------------------------------

    def cursor(self) -> Cursor:
        with self.lock:
            return Cursor(self.generation, self.ticks)

    def wait(self, cursor: Cursor, timeout_s: float) -> tuple[Cursor, bool]:
        """Block until the feed moved on from `cursor` (new pages, a tick, or a failure) or
        `timeout_s` passed; the new cursor and whether a keep-alive tick passed. Raises
        FeedFailed."""
        with self.lock:
            changed = self.changed
            moved = self.generation != cursor.generation
        if not moved:
            changed.wait(max(0.0, timeout_s))
        with self.lock:
            if self.failure is not None:
                raise FeedFailed(str(self.failure))
            ticked = self.ticks != cursor.ticks
            return Cursor(self.generation, self.ticks), ticked

    def pages_after(self, after: int) -> list[Page] | None:
        """The pages after version `after`, as shared objects where they start there; None
        when the feed no longer holds (or never held) all of them: read the log then."""
        with self.lock:
            pages = self.pages
            if self.version <= after:
                return []
        if not pages or pages[0].after > after:
            return None
        return [page.since(after) for page in pages if page.last > after]

    # ----- the reader ----------------------------------------------------------------------

    def keepalive_s(self) -> float:
        with self.lock:
            return min(self.keepalives, default=10.0)

    def run(self, service: GameService) -> None:
        """Wait on the channel, read and publish; stop once no stream is left."""
        try:
            while True:
                woke = self.listener.wait(self.keepalive_s())
                with self.lock:
                    if self.stopped or self.failure is not None:
                        return
                self.refresh(service, tick=woke is None)
        except BaseException as error:  # no stream of the game may wait on a dead reader
            self._publish([], False, error)
            self.feeds.drop(self)
            raise
        finally:
            self.listener.close()

    def refresh(self, service: GameService, tick: bool = False) -> None:
        """Read the entries after the newest version read (one load, one read per PAGE) and
        publish them; `tick`: a keep-alive interval passed without a notification."""
        try:
            record, _, _ = service.load(self.game_id)
            found: list[Page] = []
            after = self.version if self.version >= 0 else record.version
            while record.version > after:
                entries = service.entries_after(self.game_id, after, PAGE)
                if not entries:
                    break
                if entries[-1].n > record.version:
                    record, _, _ = service.load(self.game_id)
                found.append(Page(after, entries, record))
                after = entries[-1].n
        except Exception as error:  # the streams end, as their own failed read ended them
            log.warning("the feed of %s could not read the log: %s", self.game_id, error)
            self._publish([], tick, error)
            self.feeds.drop(self)
            return
        with self.lock:
            self.version = max(self.version, after)
        self._publish(found, tick)

    def _publish(self, found: list[Page], tick: bool, failure: BaseException | None = None):
        if not found and not tick and failure is None:
            return
        with self.lock:
            if found:
                self.pages = (self.pages + found)[-RECENT:]
            self.generation += 1
            self.ticks += tick
            if failure is not None:
                self.failure = failure
            changed, self.changed = self.changed, threading.Event()
        changed.set()


class Feeds:
    """The feeds of one GameService's process, by game id."""

    def __init__(self, service: GameService):
        self.service = service
        self.lock = threading.Lock()
        self.feeds: dict[str, GameFeed] = {}

    def join(self, game_id: str, keepalive_s: float) -> GameFeed:
        """The game's feed (started, listening, its version read), with one more stream."""
        with self.lock:
            feed = self.feeds.get(game_id)
            fresh = feed is None
            if fresh:
                feed = self.feeds[game_id] = GameFeed(self, game_id)
            with feed.lock:
                feed.members += 1
                feed.keepalives[keepalive_s] = feed.keepalives.get(keepalive_s, 0) + 1
        if fresh:
            try:
                self._start(feed)
            except BaseException:
                self.leave(feed, keepalive_s)
                raise
        else:
            feed.ready.wait()
        if feed.failure is not None:
            self.leave(feed, keepalive_s)
            raise FeedFailed(str(feed.failure))
        return feed

    def leave(self, feed: GameFeed, keepalive_s: float) -> None:
        """A stream of the feed ended; the feed stops with its last stream."""
        with self.lock:
            with feed.lock:
                feed.members -= 1
                left = feed.keepalives.get(keepalive_s, 1) - 1
                if left:
                    feed.keepalives[keepalive_s] = left
                else:
                    feed.keepalives.pop(keepalive_s, None)
                last = feed.members <= 0
            if last and self.feeds.get(feed.game_id) is feed:
                del self.feeds[feed.game_id]
        if last:
            self._stop(feed)

    def drop(self, feed: GameFeed) -> None:
        """A failed feed is forgotten: the next stream of its game starts a fresh one."""
        with self.lock:
            if self.feeds.get(feed.game_id) is feed:
                del self.feeds[feed.game_id]
        self._stop(feed)

    def open(self) -> int:
        """Feeds running now (for tests and stats)."""
        with self.lock:
            return len(self.feeds)

    def _start(self, feed: GameFeed) -> None:
        try:
            feed.listener = self.service.notices.listen(keys.game_channel(feed.game_id))
            feed.refresh(self.service)
            feed.reader = threading.Thread(
                target=feed.run, args=(self.service,), name="game-feed", daemon=True
            )
            feed.reader.start()
        finally:
            feed.ready.set()

    def _stop(self, feed: GameFeed) -> None:
        with feed.lock:
            if feed.stopped:
                return
            feed.stopped = True
        if feed.listener is not None:
            feed.listener.deliver(None)  # the reader wakes, sees it stopped, unsubscribes


_feeds: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_feeds_lock = threading.Lock()


def feeds_of(service: GameService, make: Callable[[GameService], Feeds] = Feeds) -> Feeds:
    """The feeds of `service` (one registry per service, hence per process)."""
    with _feeds_lock:
        found = _feeds.get(service)
        if found is None:
            found = _feeds[service] = make(service)
        return found
