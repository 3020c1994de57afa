"""Long-poll waits (`GET /events?wait=`): woken by the game's notification (store.core.notify),
with a slow re-check of the log's length so a lost notification costs latency, never an
event."""

from __future__ import annotations

import time
from collections.abc import Callable

from store import keys
from store.core.notify import Subscriber
from store.games.eventstore import EventStore

SAFETY_S = 5.0  # the re-check of a waiter that heard nothing


class VersionWatcher:
    """Waits until a game's log is longer than the version a caller knows."""

    def __init__(self, store: EventStore, subscriber: Subscriber, safety_s: float = SAFETY_S):
        self.store = store
        self.subscriber = subscriber
        self.safety_s = safety_s

    def wait(
        self,
        game_id: str,
        after: int,
        timeout_s: float,
        also: tuple[str, ...] = (),
        still_valid: Callable[[], bool] | None = None,
    ) -> bool:
        """Block up to `timeout_s` until the game's version exceeds `after`; True if it did.
        `also`: more channels to wake on (an account's, which tells of a replaced key);
        `still_valid`, asked at each wake-up, ends the wait early (False) when it says no."""
        deadline = time.monotonic() + timeout_s
        with self.subscriber.listen(keys.game_channel(game_id), *also) as listener:
            if still_valid is not None and not still_valid():  # before we listened
                return False
            while True:
                if self.store.length(game_id) > after:
                    return True
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                listener.wait(min(remaining, self.safety_s))
                if still_valid is not None and not still_valid():
                    return False
