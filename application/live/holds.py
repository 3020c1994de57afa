"""Bounds on held requests (the live streams and `events?wait=` long polls), so that one
client cannot hold the service's connections: per client address and per account (counted
in Redis across every process, store.live.streams), and per web process (counted in the process:
it keeps a share of the server's connections for ordinary requests such as moves and
/healthz).

A refused request gets `TooManyStreams` (429) at an address's or an account's bound, or
`StreamsBusy` (503) when the process holds its share; both carry Retry-After. A `Hold` is
released when its request ends, and once its stream is sending (`renew`) its leases are
renewed while it lives, so a process that dies frees its slots within one lease. The
process renews all of its streams' leases together (`Renewals`: one pipelined round trip per
sixth of a lease, one script call per key), not each stream on its own: thousands of held
streams would otherwise cost Redis a round trip each every few seconds.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import settings
from application.live.errors import StreamsBusy, TooManyStreams
from store.live import streams as slots

PER_ADDRESS = 32
PER_ACCOUNT = 8
PER_PROCESS = 150  # of gunicorn's 200 connections per process (cli.serve.WEB_CONNECTIONS)
LEASE_S = 30.0
PER_PROCESS_ENV = "KELTIS_STREAMS_PER_PROCESS"
# Connections of a process kept for ordinary requests (moves, /healthz): a quarter of them,
# at most this many; a server sized for thousands of streams needs no more free ones.
ORDINARY_AT_MOST = 500

log = logging.getLogger(__name__)


def per_process_for(connections: int) -> str:
    """The process's share for a server of `connections` per process: the operator's
    KELTIS_STREAMS_PER_PROCESS, else all of them but those kept for ordinary requests (a
    quarter, at most ORDINARY_AT_MOST: 150 of 200, 5,500 of 6,000)."""
    chosen = settings.current().streams_per_process
    if chosen is not None:
        return str(chosen)
    return str(max(1, connections - min(connections // 4, ORDINARY_AT_MOST)))


@dataclass(frozen=True, slots=True)
class HoldLimits:
    """The bounds (0: none) and the lease of a slot."""

    per_address: int = PER_ADDRESS
    per_account: int = PER_ACCOUNT
    per_process: int = PER_PROCESS
    lease_s: float = LEASE_S


class Renewals:
    """The leases of this process's sending streams, renewed together by one thread (a
    greenlet under gevent) that runs while there is one: every sixth of the shortest lease
    it renews those a third of a lease old, in one round trip (store.live.streams)."""

    def __init__(self, sleep: Callable[[float], None] = time.sleep):
        self.sleep = sleep
        self.lock = threading.Lock()
        self.holds: set[Hold] = set()
        self.thread: threading.Thread | None = None

    def add(self, hold: Hold) -> None:
        with self.lock:
            self.holds.add(hold)
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="lease-renewals", daemon=True)
                self.thread.start()

    def discard(self, hold: Hold) -> None:
        with self.lock:
            self.holds.discard(hold)

    def renew_due(self) -> int:
        """Renew the leases due (a third of a lease old); how many holds were renewed."""
        with self.lock:
            holds = list(self.holds)
        due: dict[slots.SlotStore, dict[tuple[str, int], list[str]]] = {}
        renewed = 0
        for hold in holds:
            if hold.released or not hold.due():
                continue
            hold.renewed = hold.clock()
            renewed += 1
            for key in hold.taken:
                due.setdefault(hold.store, {}).setdefault((key, hold.lease_ms), []).append(
                    hold.slot_id
                )
        for store, found in due.items():
            try:
                store.renew_many(found)
            except Exception as error:  # the next round tries again; a lease lasts 3 of them
                log.warning("stream leases not renewed: %s", error)
        return renewed

    def _run(self) -> None:
        while True:
            with self.lock:
                if not self.holds:
                    self.thread = None
                    return
                period = min(hold.lease_ms for hold in self.holds) / 6000
            self.sleep(period)
            self.renew_due()


@dataclass
class ProcessGate:
    """The held requests of this process (threads or greenlets alike), and the renewals of
    their leases."""

    held: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    renewals: Renewals = field(default_factory=Renewals)

    def enter(self, bound: int) -> bool:
        with self.lock:
            if bound and self.held >= bound:
                return False
            self.held += 1
            return True

    def leave(self) -> None:
        with self.lock:
            self.held = max(0, self.held - 1)


class Hold:
    """The slots one held request took; `release` frees them (twice is harmless)."""

    def __init__(
        self,
        store: slots.SlotStore,
        gate: ProcessGate,
        taken: list[str],
        slot_id: str,
        lease_s: float,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.store = store
        self.gate = gate
        self.taken = taken
        self.slot_id = slot_id
        self.lease_ms = int(lease_s * 1000)
        self.clock = clock
        self.renewed = clock()
        self.released = False
        self.kept = False

    def due(self) -> bool:
        """A third of a lease has passed since the last renewal."""
        return self.clock() - self.renewed >= self.lease_ms / 3000

    def renew(self) -> None:
        """Keep the leases renewed while the hold lives (the process's Renewals renew them;
        calling this again costs nothing)."""
        if self.kept or self.released:
            return
        self.kept = True
        self.gate.renewals.add(self)

    def release(self) -> None:
        if self.released:
            return
        self.released = True
        self.gate.renewals.discard(self)
        self.gate.leave()
        for key in self.taken:
            self.store.free(key, self.slot_id)


def hold(
    store: slots.SlotStore,
    gate: ProcessGate,
    limits: HoldLimits,
    address: str,
    account: str | None,
    lease_s: float | None = None,
) -> Hold:
    """Take a slot of the process, of the client address and (with an account key) of the
    account for a request about to be held (`lease_s`: its own lease, e.g. a long poll's
    wait and a margin); TooManyStreams or StreamsBusy, with nothing taken, at a bound (the
    client's own bounds first: a flood from one address is told 429, not 503)."""
    lease = limits.lease_s if lease_s is None else lease_s
    slot_id = secrets.token_urlsafe(12)
    taken: list[str] = []
    wanted = [(slots.address_key(address), limits.per_address, "client address")]
    if account is not None:
        wanted.append((slots.account_key(account), limits.per_account, "account"))
    try:
        for key, bound, who in wanted:
            if bound and not store.claim(key, slot_id, int(lease * 1000), bound):
                raise TooManyStreams(
                    f"at most {bound} streams and long polls per {who} are open at once"
                )
            if bound:
                taken.append(key)
        if not gate.enter(limits.per_process):
            raise StreamsBusy(
                "this server holds as many streams and long polls as it may; try again shortly"
            )
    except BaseException:
        for key in taken:
            store.free(key, slot_id)
        raise
    return Hold(store, gate, taken, slot_id, lease)
