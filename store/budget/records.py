"""Bot CPU budgets in Redis: per-payer counters in fixed windows (milliseconds), and the
charge record of each request that was charged (a game's creator record, a tournament's
cpu record), which the workers add the CPU they measure to (what goes beyond the estimate
is charged to the payer's current windows at once) and which is settled once.

Keys come from store.keys; a payer's counters share one hash tag, so the charge script
checks and charges all of them atomically (all or nothing), also on a Redis Cluster.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

import redis

from store import keys
from store.core.codec import text, text_fields
from store.core.scripts import load_script

RECORD_TTL_S = 30 * 24 * 3600  # a charge (and creator) record outlives any game it is for


@dataclass(frozen=True)
class Limit:
    """One budget limit: `amount_ms` of bot CPU per `period_s` seconds (a fixed window)."""

    amount_ms: int
    period_s: int

    @property
    def label(self) -> str:
        return f"{self.amount_ms}-{self.period_s}"


@dataclass(frozen=True)
class Charge:
    """What a charge attempt found: whether it was charged, each limit's use (ms) after it
    (unchanged when refused), and the counters charged."""

    ok: bool
    used_ms: tuple[int, ...]
    counters: tuple[str, ...]


@dataclass(frozen=True)
class Usage:
    """A charge record after a worker added CPU to it: the estimate charged up front, the
    CPU used, what was used beyond the estimate (`overrun_ms`, of which `due_ms` is new and
    still to be charged to the payer), the counters charged up front, the payer and its
    limits (for the live charges), and whether this call settled it."""

    settled: bool
    charged_ms: int
    used_ms: int
    overrun_ms: int
    due_ms: int
    counters: tuple[str, ...]
    payer: str
    limits: tuple[Limit, ...]


def window(limit: Limit, now_s: float) -> int:
    """The number of the fixed window of `limit` that `now_s` falls in."""
    return int(now_s // limit.period_s)


def window_end_s(limit: Limit, now_s: float) -> float:
    """When the window of `limit` that holds `now_s` ends (epoch seconds)."""
    return (window(limit, now_s) + 1) * limit.period_s


class BudgetStore:
    """The budget counters and charge records on one Redis client."""

    def __init__(self, client: redis.Redis, clock=time.time):
        self.client = client
        self.clock = clock
        self._charge = client.register_script(load_script("budget_charge.lua"))
        self._adjust = client.register_script(load_script("budget_adjust.lua"))
        self._use = client.register_script(load_script("budget_use.lua"))

    def counters(self, payer: str, limits, now_s: float | None = None) -> list[str]:
        """The counters of `payer`'s limits in the windows that hold `now_s` (default now)."""
        now = self.clock() if now_s is None else now_s
        return [keys.cpu_budget_counter(payer, lim.label, window(lim, now)) for lim in limits]

    def charge(self, payer: str, limits: list[Limit], cost_ms: int, force: bool = False) -> Charge:
        """Charge `cost_ms` to `payer` under every limit, or nothing when any would go over
        (`force`: charged all the same, for CPU already spent)."""
        counters = self.counters(payer, limits)
        args: list = [max(0, int(cost_ms))]
        for limit in limits:
            args.extend((limit.amount_ms, limit.period_s + 60))
        args.append("1" if force else "0")
        reply = self._charge(keys=counters, args=args)
        return Charge(bool(int(reply[0])), tuple(int(u) for u in reply[1:]), tuple(counters))

    def used_ms(self, payer: str, limits) -> list[int]:
        """What `payer` used of each limit in its current window (ms)."""
        if not limits:
            return []
        return [int(u or 0) for u in self.client.mget(self.counters(payer, limits))]

    def spent(self, payer: str, limits, reserve_ms: int = 0) -> bool:
        """Whether `payer` has less than `reserve_ms` left (none, by default) of any of its
        limits in the current window."""
        if not payer or not limits:
            return False
        used = self.used_ms(payer, limits)
        return any(u + reserve_ms >= lim.amount_ms for u, lim in zip(used, limits, strict=True))

    def adjust(self, counters, delta_ms: int) -> None:
        """Add `delta_ms` (negative: a refund) to counters whose window is still open."""
        if delta_ms:
            for counter in counters:
                self._adjust(keys=[counter], args=[int(delta_ms)])

    def open_record(self, key: str, charged_ms: int, counters, **extra) -> None:
        """Write the charge record of a request charged `charged_ms` on `counters` (with
        `extra` fields, e.g. a game creator's token digest and account; None is left out)."""
        fields = {
            "charged_ms": int(charged_ms),
            "used_ms": 0,
            "counters": json.dumps(list(counters)),
            **{name: value for name, value in extra.items() if value is not None},
        }
        pipe = self.client.pipeline(transaction=True)
        pipe.hset(key, mapping=fields)
        pipe.expire(key, RECORD_TTL_S)
        pipe.execute()

    def record(self, key: str) -> dict[str, str]:
        """The fields of a charge record (empty when there is none)."""
        return text_fields(self.client.hgetall(key))

    def use(self, key: str, used_ms: int, settle: bool = False) -> Usage | None:
        """Add CPU measured by a worker to a charge record (None without one); with `settle`,
        settle it now (`Usage.settled` is True the first time only)."""
        reply = self._use(keys=[key], args=[max(0, int(used_ms)), "1" if settle else "0"])
        if not reply:
            return None
        settled, charged, used, overrun, due, counters, payer, limits = reply
        return Usage(
            bool(int(settled)),
            int(charged),
            int(used),
            int(overrun),
            int(due),
            tuple(json.loads(text(counters))),
            text(payer),
            parse_limits_field(text(limits)),
        )


def limits_field(limits) -> str:
    """A charge record's `limits` field: the payer's limits as JSON [[amount_ms, period_s]]."""
    return json.dumps([[lim.amount_ms, lim.period_s] for lim in limits])


def parse_limits_field(value: str | None) -> tuple[Limit, ...]:
    return tuple(Limit(int(a), int(p)) for a, p in json.loads(value or "[]"))
