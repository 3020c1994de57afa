"""The one-shot move of challenges and two-board matches from the single `{ch}` slot to the
keys of store.keys.challenges (run by `keltis reindex`): each old key is copied to its new
name with its value and what is left of its expiry (DUMP and RESTORE), then deleted; an
accepted challenge still filed as awaiting its game is marked `pending`, as the new accept
marks it. Running it again finds no old key left."""

from __future__ import annotations

from collections.abc import Callable

import redis

from store import keys
from store.core.codec import text

# Old suffix after `keltis:{ch}:` -> the new key of the rest of the name; the longer
# prefixes first (`challenges:` before `challenge:`).
_ONE_PART: list[tuple[str, Callable[[str], str]]] = [
    ("challenges:out:", keys.challenges_out),
    ("challenges:in:", keys.challenges_in),
    ("challenges:of:", keys.challenges_of),
    ("challenge:", keys.challenge),
    ("match:", keys.match),
]
_TWO_PARTS: list[tuple[str, Callable[[str, str], str]]] = [
    ("challenge-pair:", keys.challenge_pair),
    ("challenge-cooldown:", keys.challenge_cooldown),
]
_WHOLE = {
    "challenges:expiring": keys.challenges_expiring,
    "challenges:calls": keys.challenge_calls,
    "challenges:accepted": keys.challenges_accepted,
    "matches:running": keys.matches_running,
}


def new_name(old: str) -> str | None:
    """The new key of an old `{ch}` key (None: not a key this service wrote)."""
    rest = old[len(keys.legacy_challenge_prefix()) :]
    if rest in _WHOLE:
        return _WHOLE[rest]()
    for prefix, build in _TWO_PARTS:
        if rest.startswith(prefix):
            first, _, second = rest[len(prefix) :].partition(":")
            return build(first, second) if second else None
    for prefix, build in _ONE_PART:
        if rest.startswith(prefix):
            return build(rest[len(prefix) :])
    return None


def move_legacy_challenges(client: redis.Redis) -> int:
    """Move every old challenge and match key; the number of keys moved."""
    moved = 0
    for raw_key in list(client.scan_iter(match=keys.legacy_challenge_pattern())):
        old = text(raw_key)
        new = new_name(old)
        dumped = client.dump(old)
        if new is None or dumped is None:
            continue
        left_ms = client.pttl(old)
        if left_ms == -2:  # expired meanwhile
            continue
        client.restore(new, max(0, left_ms), dumped, replace=True)
        client.delete(old)
        moved += 1
    for challenge_id in client.zrange(keys.challenges_accepted(), 0, -1):
        record = keys.challenge(text(challenge_id))
        if text(client.hget(record, "status") or b"") == "accepted":
            client.hset(record, "pending", "1")
    return moved
