"""The listings over Redis and the archive tier together.

A game moved to the archive (application.operations.archive) leaves Redis's listing sets and summary
hash: the archive's rows are listed instead, in the same order (store.core.cursor: created_at,
then id bytewise). A page reads one page from each and merges them, so a walk by cursor
meets every game once, wherever it is, and a game caught between its copy and its removal
from Redis (in both) once. Without an archive these are the plain Redis reads.
"""

from __future__ import annotations

import redis

from store import keys
from store.archive.tier import ArchiveStore
from store.core.cursor import Pager, Position


def _order(item: tuple[float, str]) -> tuple[float, bytes]:
    score, member = item
    return score, member.encode() if isinstance(member, str) else member


def page_with_scores(
    client: redis.Redis,
    archive: ArchiveStore | None,
    key: str,
    after: Position | None,
    limit: int,
    status: str | None = None,
    game: str | None = None,
    since: int | None = None,
) -> tuple[list[str], list[float], Position | None]:
    """Up to `limit` ids (and scores) after `after`, newest first, of the listing set `key`
    and of the archived games of `status` and `game` (what `key` lists), and the position
    to go on from (None at the end). `since` only narrows the archive's read: the caller
    stops its walk below it."""
    ids, scores, position = Pager(client).page_with_scores(key, after, limit)
    if archive is None:
        return ids, scores, position
    archived = archive.page(after, limit + 1, status=status, game=game, since=since)
    merged = {game_id: (score, game_id) for game_id, score in zip(ids, scores, strict=True)}
    for created_at, game_id in archived[:limit]:
        merged.setdefault(game_id, (float(created_at), game_id))
    ordered = sorted(merged.values(), key=_order, reverse=True)
    taken = ordered[:limit]
    more = position is not None or len(archived) > limit or len(ordered) > limit
    next_position = Position(*taken[-1]) if more and taken else None
    return [g for _, g in taken], [s for s, _ in taken], next_position


def read_summaries(
    client: redis.Redis, archive: ArchiveStore | None, ids: list[str]
) -> list[bytes | None]:
    """The index summaries of `ids` (None: no such game): from Redis, else the archive."""
    if not ids:
        return []
    found = client.hmget(keys.game_summaries(), ids)
    missing = [game_id for game_id, raw in zip(ids, found, strict=True) if raw is None]
    if archive is None or not missing:
        return found
    archived = archive.summaries(missing)
    return [raw if raw is not None else archived.get(g) for g, raw in zip(ids, found, strict=True)]
