"""Arena tests leave no arena live behind them: later tests' workers would keep pairing
their bots."""

from __future__ import annotations

import pytest

from store.arenas.records import ArenaStore
from store.core.clock import now_ms


@pytest.fixture(autouse=True)
def close_arenas_after(redis_url):
    yield
    import redis

    client = redis.Redis.from_url(redis_url)
    store = ArenaStore(client)
    for aid in store.live():
        store.close(aid, now_ms())
    client.close()
