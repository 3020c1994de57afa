"""Bounds on held requests (the live streams and `events?wait=` long polls), so that one
client cannot hold the service's connections: per client address and per account (counted
in Redis across every process, store.streams), and per web process (counted in the process:
it keeps a share of the server's connections for ordinary requests such as moves and
/healthz).

A refused request gets `TooManyStreams` (429) at an address's or an account's bound, or
`StreamsBusy` (503) when the process holds its share; both carry Retry-After. A `Hold` is
released when its request ends, and renews its leases while it lives (`renew`, cheap to call
often: it talks to Redis at most once per third of a lease), so a process that dies frees
its slots within one lease.
"""

from __future__ import annotations

import os
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from application.errors import StreamsBusy, TooManyStreams
from store import streams as slots

PER_ADDRESS = 32
PER_ACCOUNT = 8
PER_PROCESS = 150  # of gunicorn's 200 connections per process (cli.serve.WEB_CONNECTIONS)
LEASE_S = 30.0
PER_PROCESS_ENV = "KELTIS_STREAMS_PER_PROCESS"


def per_process_for(connections: int) -> str:
    """The process's share for a server of `connections` per process: the operator's
    KELTIS_STREAMS_PER_PROCESS, else three quarters of them (the rest stays for ordinary
    requests)."""
    return os.environ.get(PER_PROCESS_ENV, "").strip() or str(max(1, connections * 3 // 4))


@dataclass(frozen=True, slots=True)
class HoldLimits:
    """The bounds (0: none) and the lease of a slot."""

    per_address: int = PER_ADDRESS
    per_account: int = PER_ACCOUNT
    per_process: int = PER_PROCESS
    lease_s: float = LEASE_S


@dataclass
class ProcessGate:
    """The held requests of this process (threads or greenlets alike)."""

    held: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

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

    def renew(self) -> None:
        """Extend the leases when a third of one has passed since the last renewal."""
        if self.released or self.clock() - self.renewed < self.lease_ms / 3000:
            return
        self.renewed = self.clock()
        for key in self.taken:
            self.store.renew(key, self.slot_id, self.lease_ms)

    def release(self) -> None:
        if self.released:
            return
        self.released = True
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
