"""Accounts' rating histories in Redis: one sorted set per (game type, account) of its rating
after each rated game, scored by the game's sequence number in its game type's ladder log
(keys.ladder_history).

Why stored, not computed on request: a rating after a game depends on every opponent's
rating before it, so one account's history needs the fold of its game type's whole log up
to its last game (the log may hold 100k entries). The ladder's fold
(store.ladder.records.LadderStore) already computes each step; it writes the step's points
in the same check-and-set script as the ratings, so history and ratings move together. A
read is one ZREVRANGEBYSCORE: O(log n + page). A rebuild (`keltis ratings rebuild`)
re-derives every point from the logs and repairs the sets to match (missing points added,
stale ones removed), so history, like the ratings, is the logs' fold.
"""

from __future__ import annotations

from collections.abc import Iterable

import redis

from ladder.fold import Key
from ladder.history import HistoryPoint
from store import keys
from store.core.codec import text

MEMBERS_PER_COMMAND = 200  # ZADD pairs per write (Lua's unpack limit)
READ_CHUNK = 2000


def history_writes(steps: Iterable[tuple[Key, HistoryPoint]]) -> list[tuple[str, str, list]]:
    """ZADD writes (for the ladder's fold script) of history points, per key, in chunks."""
    by_key: dict[str, list] = {}
    for (game, participant), point in steps:
        by_key.setdefault(keys.ladder_history(game, participant), []).extend(
            (point.seq, point.to_member())
        )
    writes = []
    for key, scored in by_key.items():
        for at in range(0, len(scored), 2 * MEMBERS_PER_COMMAND):
            writes.append(("ZADD", key, scored[at : at + 2 * MEMBERS_PER_COMMAND]))
    return writes


def page(
    client: redis.Redis, game: str, participant: str, before: int | None, limit: int
) -> tuple[list[HistoryPoint], int | None]:
    """One page of a participant's history, newest first, from ladder sequence numbers
    below `before` (None: from the newest); the points and the `before` of the next page
    (None at the end)."""
    top = "+inf" if before is None else f"({before}"
    raw = client.zrevrangebyscore(
        keys.ladder_history(game, participant), top, "-inf", start=0, num=limit + 1
    )
    found = [HistoryPoint.from_member(item) for item in raw[:limit]]
    return found, (found[-1].seq if len(raw) > limit else None)


def repair(client: redis.Redis, game: str, steps: list[tuple[Key, HistoryPoint]], upto: int) -> int:
    """Make the stored histories of game type `game` hold exactly the points `steps` (a fold
    of its log's first `upto` entries) for sequence numbers 1..upto; points after `upto`
    (folded since) are kept. The number of points added or removed (0: the stored history
    was the fold)."""
    wanted: dict[str, set[bytes]] = {}
    for (_, participant), point in steps:
        wanted.setdefault(keys.ladder_history(game, participant), set()).add(point.to_member())
    pattern = keys.ladder_history_pattern(game)
    stored_keys = {text(key) for key in client.scan_iter(match=pattern)}
    changed = 0
    for key in sorted(stored_keys | set(wanted)):
        have = _members(client, key, upto)
        want = wanted.get(key, set())
        stale, missing = have - want, want - have
        changed += len(stale) + len(missing)
        pipe = client.pipeline(transaction=False)
        stale_list = sorted(stale)
        for at in range(0, len(stale_list), MEMBERS_PER_COMMAND):
            pipe.zrem(key, *stale_list[at : at + MEMBERS_PER_COMMAND])
        missing_list = sorted(missing)
        for at in range(0, len(missing_list), MEMBERS_PER_COMMAND):
            chunk = missing_list[at : at + MEMBERS_PER_COMMAND]
            pipe.zadd(key, {member: HistoryPoint.from_member(member).seq for member in chunk})
        pipe.execute()
    return changed


def _members(client: redis.Redis, key: str, upto: int) -> set[bytes]:
    """The members of a history with sequence numbers 1..upto."""
    found: set[bytes] = set()
    offset = 0
    while True:
        raw = client.zrangebyscore(key, "-inf", upto, start=offset, num=READ_CHUNK)
        found.update(item if isinstance(item, bytes) else item.encode() for item in raw)
        if len(raw) < READ_CHUNK:
            return found
        offset += READ_CHUNK
