"""Moving finished games from Redis to the archive tier in PostgreSQL (store.archive.tier).

With KELTIS_ARCHIVE_URL set, compaction files each game it compacts in `games_to_archive`
(application.operations.compaction). The periodic worker thread (workers/archive.py) claims the
games
filed longer than KELTIS_ARCHIVE_AFTER ago, in batches of BATCH, and moves each in three
steps:

1. copy: insert the game's row (its compacted blob, byte for byte, with its SHA-256 and its
   index summary) unless a row exists;
2. verify: read the row back and compare the blob's SHA-256 with the one Redis holds;
3. delete: drop the blob from Redis, only if it is still the one verified (one script);
4. unlist: take the game out of Redis's listing sets and summary hash.

Then the game leaves `games_to_archive`. A process killed between any two steps loses
nothing (Redis keeps its blob until the archive holds a verified copy) and leaves no
duplicate (the row is inserted once; a repeat finds it): a lapsed claim makes the game due
again and the next pass finishes the move. Every log read falls back to the archive
(store.games.eventstore); the listings and the export walk Redis and the archive together, and
read summaries from either (store.archive.listing), so a game listed in both while it
moves is listed once. What Redis keeps of an archived game: its entries in its accounts'
game sets (the accounts' pages and profile counts walk them) and, for a rated game, the
ladder's record of it. A game of a duplicate deal waits until its deal is unsealed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from enum import StrEnum

import orjson

import settings
from application.metrics import counters as metrics
from gamelog.errors import CorruptLog
from store.archive.queue import ArchiveQueue, Drop
from store.archive.tier import ArchivedGame, ArchiveStore, archive_from_env, digest
from store.core.clock import now_ms
from store.games import packing

log = logging.getLogger(__name__)

CLAIM_MS = 120_000
BATCH = 100


class ArchiveMismatch(CorruptLog):
    """The archive's copy of a game does not read back as the blob Redis holds."""


class Outcome(StrEnum):
    """What became of one game's move."""

    ARCHIVED = "archived"
    ALREADY = "already"  # moved before (Redis holds no blob, the archive has the row)
    LIVE = "live"  # not compacted yet, or of a sealed deal: left alone for now
    MISSING = "missing"  # no such game anywhere
    CHANGED = "changed"  # Redis holds another blob than the one copied: kept


def archive_after_s() -> float:
    """Seconds a compacted game stays in Redis before it moves (KELTIS_ARCHIVE_AFTER:
    seconds, or a number with s, m, h or d; default a day). ValueError for another form."""
    return settings.current().archive_after_s


def row_of(game_id: str, blob: bytes, summary: bytes) -> ArchivedGame:
    """The archive row of a compacted game from its blob and its index summary."""
    shown = orjson.loads(summary)
    accounts = sorted({p["account"].lower() for p in shown.get("players", []) if p.get("account")})
    return ArchivedGame(
        game_id=game_id,
        game=shown["game"],
        status=shown["status"],
        created_at=int(shown["created_at"]),
        updated_at=int(shown["updated_at"]),
        version=packing.unpack(blob).version,
        accounts=accounts,
        summary=bytes(summary),
        log=bytes(blob),
    )


def _no_fault(step: str) -> None:
    """The default `between` hook: nothing happens between the steps."""


def archive_game(
    queue: ArchiveQueue,
    archive: ArchiveStore,
    game_id: str,
    between: Callable[[str], None] = _no_fault,
) -> Outcome:
    """Move one compacted game to the archive: copy, verify, delete, unlist (idempotent).
    `between(step)` runs after the steps "copied", "verified", "deleted" and "unlisted"
    (tests inject a crash there). ArchiveMismatch when the archive holds another log for
    the game."""
    held = queue.held(game_id)
    blob = held.blob
    if blob is None:
        if held.live:
            return Outcome.LIVE
        listing = archive.listing_of(game_id)
        if listing is None:
            return Outcome.MISSING
        queue.unlist(game_id, *listing)  # a move cut short after its delete
        between("unlisted")
        return Outcome.ALREADY
    if held.summary is None:
        raise CorruptLog(f"game {game_id} has no index summary: run `keltis reindex`")
    if not held.listed:
        return Outcome.LIVE  # a sealed deal's game: moved once its deal is over
    row = row_of(game_id, blob, held.summary)
    archive.put(row)
    between("copied")
    stored = archive.stored(game_id)
    wanted = digest(blob)
    if stored is None or stored[1] != wanted or digest(stored[0]) != wanted:
        raise ArchiveMismatch(f"game {game_id}: the archived log is not the one Redis holds")
    between("verified")
    dropped = queue.drop(game_id, blob)
    between("deleted")
    if dropped is Drop.CHANGED:
        return Outcome.CHANGED
    queue.unlist(game_id, row.game, row.status)
    between("unlisted")
    return Outcome.ARCHIVED if dropped is Drop.DROPPED else Outcome.ALREADY


def archive_due(
    client,
    archive: ArchiveStore | None = None,
    after_s: float | None = None,
    now: int | None = None,
    limit: int = BATCH,
    between: Callable[[str], None] = _no_fault,
) -> int:
    """Claim up to `limit` games due to move and move each; the number archived (0 without
    an archive tier)."""
    archive = archive if archive is not None else archive_from_env()
    if archive is None:
        return 0
    queue = ArchiveQueue(client)
    now = now_ms() if now is None else now
    after_s = archive_after_s() if after_s is None else after_s
    archived = 0
    for game_id in queue.claim_due(now - int(after_s * 1000), CLAIM_MS, now, limit):
        try:
            outcome = archive_game(queue, archive, game_id, between)
        except CorruptLog as error:
            log.warning("the archive skips game %s: %s", game_id, error.message)
            metrics.archived("skipped")
            queue.done(game_id)
            continue
        metrics.archived(outcome.value)
        if outcome is Outcome.LIVE:
            continue  # filed again once its claim lapses
        archived += outcome is Outcome.ARCHIVED
        queue.done(game_id)
    return archived
