"""How many sign-in attempts a client may make: per account name and client address
(KELTIS_SIGN_IN_LIMIT_ACCOUNT, default 5 per 15 minutes) and per address alone
(KELTIS_SIGN_IN_LIMIT_ADDRESS, default 20 per hour), in fixed windows counted in Redis
(store.accounts.sign_in_limits). Every attempt counts, right or wrong, before any password is
verified, so a refused guess costs no hash; an unknown name counts as a known one does.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from functools import lru_cache

import redis
from limits import RateLimitItem, parse_many

import settings
from application.accounts.errors import SignInLimited
from store.accounts import sign_in_limits
from store.accounts.records import fold

OFF = "off"


@lru_cache(maxsize=8)
def _parsed(text: str) -> tuple[RateLimitItem, ...]:
    return () if text.strip().lower() == OFF else tuple(parse_many(text))


def count_attempt(
    client: redis.Redis, name: str, address: str, clock: Callable[[], float] = time.time
) -> None:
    """Count one attempt of `address` to sign in as `name`; SignInLimited (with the seconds
    until the fullest window ends) when this attempt is over a limit."""
    configured = settings.current()
    scopes = (
        ("name", configured.sign_in_limit_account, f"{fold(name)}|{address}"),
        ("address", configured.sign_in_limit_address, address),
    )
    now = clock()
    windows, items = [], []
    for scope, text, who in scopes:
        for item in _parsed(text):
            expiry = int(item.get_expiry())
            windows.append((f"{scope}-{item.amount}-{expiry}", who, int(now // expiry), expiry))
            items.append(item)
    if not windows:
        return
    counts = sign_in_limits.count(client, windows)
    over = [
        ((number + 1) * expiry - now, item)
        for (_, _, number, expiry), item, total in zip(windows, items, counts, strict=True)
        if total > item.amount
    ]
    if over:
        wait_s, item = max(over, key=lambda pair: pair[0])
        raise SignInLimited(f"too many sign-in attempts: {item}", math.ceil(wait_s))
