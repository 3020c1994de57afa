"""Compacting finished games: their logs become one compressed blob each (store.games.packing),
which every read path serves unchanged.

The append that finishes a game (or expires it) files it in `games_to_compact`
(store.games.index.compactable). A worker's compaction thread (workers/compact.py) claims the
games filed longer than `compact_after_s` ago (the grace keeps a retried request's recorded
answer a while: compaction drops recorded answers), checks each one is over, and compacts it
in two steps (store.games.compaction). A game that is not over is left alone. With an archive
tier (KELTIS_ARCHIVE_URL), each compacted game is then filed for its move there
(application.operations.archive).
"""

from __future__ import annotations

import logging
from enum import StrEnum

import redis

import settings
from application.metrics import counters as metrics
from gamelog.entries import decode
from gamelog.errors import CorruptLog
from gamelog.record import fold_entries
from store.archive.queue import ArchiveQueue
from store.archive.tier import archive_url
from store.core.clock import now_ms
from store.games import packing
from store.games.compaction import CompactionStore, Step
from store.games.index import compactable

log = logging.getLogger(__name__)

CLAIM_MS = 60_000
BATCH = 100


class Outcome(StrEnum):
    """What became of one game's compaction."""

    COMPACTED = "compacted"
    ALREADY = "already"  # compacted before
    LIVE = "live"  # not over: left alone
    MISSING = "missing"  # no such game


def compact_after_s() -> float:
    """Seconds a finished game waits before compaction (KELTIS_COMPACT_AFTER_S, 300)."""
    return settings.current().compact_after_s


def compact(store: CompactionStore, game_id: str) -> Outcome:
    """Compact one game that is over (idempotent; a crash at any point loses nothing)."""
    entries, hashes = store.live_log(game_id)
    if not entries:
        version = store.packed_version(game_id)
        if version is None:
            return Outcome.MISSING
        store.drop(game_id, version)
        return Outcome.ALREADY
    record = fold_entries(None, game_id, [decode(raw) for raw in entries])
    if not compactable(record):
        return Outcome.LIVE
    blob = packing.pack(entries, hashes)
    packed = packing.unpack(blob)
    if packed.entries != entries or packed.token_hashes != hashes:
        raise CorruptLog(f"game {game_id}: the compacted log does not read back as the log")
    step = store.write(game_id, entries, blob)
    if step is Step.MOVED:
        return Outcome.LIVE
    version = store.packed_version(game_id) if step is Step.EXISTS else len(entries)
    if store.drop(game_id, version) is not Step.DROPPED:
        return Outcome.LIVE
    return Outcome.COMPACTED


def compact_due(
    client: redis.Redis, after_s: float | None = None, now: int | None = None, limit: int = BATCH
) -> int:
    """Claim the games due for compaction and compact each; the number compacted."""
    store = CompactionStore(client)
    now = now_ms() if now is None else now
    after_s = compact_after_s() if after_s is None else after_s
    compacted = 0
    to_archive = ArchiveQueue(client) if archive_url() else None
    for game_id in store.claim_due(now - int(after_s * 1000), CLAIM_MS, now, limit):
        try:
            outcome = compact(store, game_id)
        except CorruptLog as error:
            log.warning("compaction skips game %s: %s", game_id, error.message)
            metrics.compacted("corrupt")
            store.done(game_id)
            continue
        compacted += outcome is Outcome.COMPACTED
        metrics.compacted(outcome)
        if to_archive is not None and outcome in (Outcome.COMPACTED, Outcome.ALREADY):
            to_archive.file(game_id, now)
        store.done(game_id)
    return compacted
