"""Keys of quotas, rate counters and bot CPU budgets."""

from __future__ import annotations

from store.keys.games import PREFIX
from store.keys.tournaments import _tournament


def quota_prefix() -> str:
    """Prefix of the per-client creation quota counters (the `limits` library's keys)."""
    return f"{PREFIX}:quota"


def rate_counter(prefix: str, limit: str, client: str, window: int) -> str:
    """String: requests of one client in one fixed window of one rate limit, summed over the
    web processes (api.core.ratecount); `prefix` is the rate limit's key prefix."""
    return f"{prefix}:{limit}:{client}:{window}"


def cpu_budget_counter(payer: str, limit: str, window: int) -> str:
    """String: milliseconds of bot CPU charged to one payer (`addr:<address>` or
    `acct:<folded name>`) in one fixed window of one budget limit (store.budget.records); a payer's
    counters share the hash tag `{b:<payer>}`, so one script checks them all."""
    return f"{PREFIX}:budget:{{b:{payer}}}:{limit}:{window}"


def tournament_cpu(tid: str) -> str:
    """Hash: the bot CPU charged for a tournament and used by its games (store.budget.records)."""
    return _tournament(tid, "cpu")
