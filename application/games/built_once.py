"""Derived answers of finished games, built once and kept (store.games.derived).

A finished game's log never changes, so whatever is derived from it (its replay, its page,
the game as it stood at a version) is built once: the first request builds it, a request
beside it in the same process waits for that build, and one in another process waits
for the lease holder's answer to appear in Redis. Only a build that failed or whose builder
vanished (its lease expired) is tried again. The name of an answer carries what it was
built from (the game's final version...), so a changed input is another answer.

Callers ask only about finished games: nothing of a live game is ever kept here (R2).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import settings
from domain.errors import KeltisError, Kind
from store.games.derived import DerivedStore

LEASE_S = 120  # longer than any build; a builder that died frees the answer after this
POLL_S = 0.02  # how often a request waits for another process's build looks again

Parts = dict[str, bytes]


class StillBuilding(KeltisError):
    """Another process is still building the answer (503: ask again shortly)."""

    code = "still_building"
    kind = Kind.UNAVAILABLE
    retry_after_s = 2


def ttl_s() -> int:
    """Seconds a game's derived answers are kept after their last write: KELTIS_DERIVED_TTL_S."""
    return settings.current().derived_ttl_s


@dataclass
class _Flight:
    """One build in this process; requests for the same answer wait on it."""

    # looked up when made, so a gevent-patched process waits on gevent's Event
    done: threading.Event = field(default_factory=lambda: threading.Event())
    parts: Parts | None = None
    error: BaseException | None = None


_flights: dict[tuple[str, str], _Flight] = {}
_flights_lock = threading.Lock()
builds = 0  # builds this process has run (the tests count them)


def fetch(
    store: DerivedStore,
    game_id: str,
    name: str,
    parts: tuple[str, ...],
    build: Callable[[], Parts],
    wait_s: float = LEASE_S,
) -> Parts:
    """The stored answer `name` of the game, or `build()`'s (stored for the next request).
    `build` returns at least `parts`; StillBuilding when another process's build does not
    land within `wait_s`."""
    found = store.read(game_id, name, parts)
    if found is not None:
        return found
    with _flights_lock:
        flight = _flights.get((game_id, name))
        leader = flight is None
        if leader:
            flight = _flights[(game_id, name)] = _Flight()
    if not leader:
        flight.done.wait(wait_s)
        if flight.error is not None:
            raise flight.error
        held = flight.parts or {}
        if all(part in held for part in parts):
            return {part: held[part] for part in parts}
        found = store.read(game_id, name, parts)  # the leader read other parts than ours
        if found is None:
            raise StillBuilding("the answer is still being built; ask again shortly")
        return found
    try:
        flight.parts = _lead(store, game_id, name, parts, build, wait_s)
        return {part: flight.parts[part] for part in parts}
    except BaseException as error:
        flight.error = error
        raise
    finally:
        with _flights_lock:
            _flights.pop((game_id, name), None)
        flight.done.set()


def _lead(store, game_id, name, parts, build, wait_s) -> Parts:
    """This process's one request for the answer: build it under the lease (every part
    built), or wait for the process holding the lease (and build it if that one gives up)
    and read its `parts`."""
    global builds
    token = secrets.token_hex(8)
    deadline = time.monotonic() + wait_s
    while True:
        if store.begin(game_id, name, token, LEASE_S * 1000):
            try:
                found = store.read(game_id, name, parts)  # landed since our first look
                if found is not None:
                    return found
                builds += 1
                made = build()
                store.write(game_id, name, made, ttl_s())
                return made  # every part: the requests waiting on it may want others
            finally:
                store.end(game_id, name, token)
        while store.leased(game_id, name):
            if time.monotonic() >= deadline:
                raise StillBuilding("the answer is still being built; ask again shortly")
            time.sleep(POLL_S)  # gevent's sleep in a web process: other requests run
        found = store.read(game_id, name, parts)
        if found is not None:
            return found
