"""Request counts per client and fixed window, kept in the process and added to the shared
counters in Redis in batches.

The rate limit is checked on every request, and a Redis round trip for each would cost
about as much as a move's own work. So each process counts locally and, every `sync_s`
(50 ms), adds what it counted to the shared counters in one pipelined round trip and
learns the totals of every process from the replies. A request is refused when the total
known at the last sync plus this process's own count since then reaches the limit.

Exact within one process. Across N processes a client that spreads its requests over them
may be let through for at most one sync interval's worth of requests per other process
beyond the limit before every process knows the total. When Redis cannot be reached the
counts of that interval are dropped and requests go on (the store itself answers 503).
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable

from limits import RateLimitItem

from domain.errors import KeltisError, Kind
from store import keys

SYNC_S = 0.05
# The metrics scrape too: refusing it would blind the operator when the service is busiest.
EXEMPT_PATHS = frozenset({"/healthz", "/openapi.yaml", "/docs", "/metrics"})
LOCAL_ADDRESS = "127.0.0.1"  # the key of a request without a remote address
COUNTED = "keltis.rate_counted"  # environ key: counted already

logger = logging.getLogger(__name__)

Window = tuple[int, str, int]  # (index of the limit, client, window number)


class WindowCounts:
    """Fixed-window request counts of one process, synced with Redis in the background."""

    def __init__(
        self,
        client,
        limits: list[RateLimitItem],
        prefix: str,
        sync_s: float = SYNC_S,
        clock: Callable[[], float] = time.time,
    ):
        self.client = client
        self.limits = sorted(limits)
        self._expiries = [limit.get_expiry() for limit in self.limits]
        self._amounts = [limit.amount for limit in self.limits]
        self.prefix = prefix
        self.sync_s = sync_s
        self.clock = clock
        self._known: dict[Window, int] = {}  # every process's total at the last sync
        self._pending: dict[Window, int] = {}  # this process's count since then
        self._sending: dict[Window, int] = {}  # its count being added by a sync now
        self._lock = threading.Lock()
        self._one_sync = threading.Lock()  # syncs take turns (the background one, a test's)
        self._thread: threading.Thread | None = None

    def hit(self, who: str) -> RateLimitItem | None:
        """Count one request of `who`; the limit it is over instead (then nothing is
        counted)."""
        if self._thread is None:
            self._start()
        now = self.clock()
        windows = [(index, who, int(now // expiry)) for index, expiry in enumerate(self._expiries)]
        with self._lock:
            for window, amount in zip(windows, self._amounts):  # noqa: B905 (same length)
                if self._count(window) >= amount:
                    return self.limits[window[0]]
            for window in windows:
                self._pending[window] = self._pending.get(window, 0) + 1
        return None

    def sync(self) -> None:
        """Add this process's counts to the shared counters and learn the totals."""
        with self._one_sync:
            self._sync()

    def _sync(self) -> None:
        with self._lock:
            batch, self._pending = self._pending, {}
            self._sending = batch
        if not batch:
            return
        pipe = self.client.pipeline(transaction=False)
        for (index, who, number), count in batch.items():
            key = self.key(index, who, number)
            pipe.incrby(key, count)
            pipe.expire(key, int(self._expiries[index]) + 1)
        try:
            replies = pipe.execute()
        except Exception as error:  # fail open: the request path never waits on this
            logger.warning("rate-limit counts could not be synced: %s", error)
            with self._lock:
                self._sending = {}
            return
        totals = dict(zip(batch, replies[::2], strict=True))
        now = self.clock()
        current = [int(now // expiry) for expiry in self._expiries]
        with self._lock:
            self._sending = {}
            for window, total in totals.items():
                self._known[window] = max(self._known.get(window, 0), int(total))
            for window in [w for w in self._known if w[2] < current[w[0]]]:
                del self._known[window]

    def _count(self, window: Window) -> int:
        """Requests in `window` as this process knows them (the lock held)."""
        known = self._known.get(window, 0)
        return known + self._sending.get(window, 0) + self._pending.get(window, 0)

    def key(self, index: int, who: str, number: int) -> str:
        """The shared counter of one limit, client and window."""
        limit = f"{self._amounts[index]}-{self._expiries[index]}"
        return keys.rate_counter(self.prefix, limit, who, number)

    def _start(self) -> None:
        with self._lock:
            if self._thread is not None:
                return
            self._thread = threading.Thread(target=self._run, name="rate-counts", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            time.sleep(self.sync_s)
            try:
                self.sync()
            except Exception:  # never let the thread die; the next interval tries again
                logger.exception("rate-limit sync failed")


class RateLimited(KeltisError):
    """The client is over `limit` (429, Retry-After: the limit's window)."""

    code = "rate_limited"
    kind = Kind.RATE_LIMITED

    def __init__(self, limit: RateLimitItem):
        super().__init__(f"too many requests: {limit}")
        self.retry_after_s = math.ceil(limit.get_expiry())


class RateLimit:
    """The limits of one app and their counts."""

    def __init__(self, counts: WindowCounts):
        self.counts = counts

    def count(self, environ: dict) -> None:
        """Count a request (a WSGI environ) once, unless its path is exempt; RateLimited
        when over a limit."""
        if environ.get("PATH_INFO") in EXEMPT_PATHS or COUNTED in environ:
            return
        self.hit(environ.get("REMOTE_ADDR") or LOCAL_ADDRESS)
        environ[COUNTED] = True

    def hit(self, client: str) -> None:
        """Count a request of `client` now; RateLimited when over a limit (a refused request
        is not counted)."""
        refused = self.counts.hit(client)
        if refused is not None:
            raise RateLimited(refused)
