"""The archive tier: finished games' compacted logs in PostgreSQL (KELTIS_ARCHIVE_URL).

One row per game (store.archive.schema) holding the blob Redis held (store.games.packing), so a
read served from here gives the same bytes as one served from Redis. EventStore falls back
to `ArchiveStore.blob` when Redis holds no log for a game, so every read path serves an
archived game. Without KELTIS_ARCHIVE_URL there is no archive: `archive_from_env()` is
None and nothing here runs.
"""

from __future__ import annotations

import hashlib
import math
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

import settings
from store.archive.schema import migrate
from store.core.cursor import Position

if TYPE_CHECKING:  # psycopg is imported only once an archive is used
    from psycopg_pool import ConnectionPool

URL_ENV = "KELTIS_ARCHIVE_URL"
POOL_MAX = 4
POOL_TIMEOUT_S = 10.0


@dataclass(frozen=True, slots=True)
class ArchivedGame:
    """One row: a game's compacted log and what the listings and the export filter on."""

    game_id: str
    game: str
    status: str
    created_at: int
    updated_at: int
    version: int
    accounts: list[str]
    summary: bytes
    log: bytes

    @property
    def log_sha256(self) -> bytes:
        return digest(self.log)


def digest(blob: bytes) -> bytes:
    """The SHA-256 a row stores with its log (the copy is verified against it)."""
    return hashlib.sha256(blob).digest()


class ArchiveUnavailable(RuntimeError):
    """PostgreSQL did not answer (or failed): the API answers 503 storage_unavailable, as
    for Redis (api/core/errors.py); a worker's pass fails and the next one tries again."""


class ArchiveStore:
    """Rows of archived games over a small connection pool, opened (and the schema
    migrated) on first use. Every failure of PostgreSQL is an ArchiveUnavailable."""

    def __init__(self, url: str, max_size: int = POOL_MAX, timeout_s: float | None = None):
        self.url = url
        self.max_size = max_size
        self.timeout_s = timeout_s
        self._pool: ConnectionPool | None = None
        self._lock = threading.Lock()

    @contextmanager
    def connection(self):
        """A pooled connection (autocommit); ArchiveUnavailable when PostgreSQL fails."""
        import psycopg

        try:
            with self.pool.connection() as connection:
                yield connection
        except psycopg.Error as error:
            raise ArchiveUnavailable(f"the game archive is unavailable: {error}") from error

    @property
    def pool(self) -> ConnectionPool:
        if self._pool is None:
            with self._lock:
                if self._pool is None:
                    from psycopg_pool import ConnectionPool

                    pool = ConnectionPool(
                        self.url,
                        min_size=1,
                        max_size=self.max_size,
                        kwargs={"autocommit": True},
                        timeout=self.timeout_s or POOL_TIMEOUT_S,
                        open=True,
                    )
                    try:
                        with pool.connection() as connection:
                            migrate(connection)
                    except BaseException:
                        pool.close()
                        raise
                    self._pool = pool
        return self._pool

    def put(self, row: ArchivedGame) -> bool:
        """Insert a game's row unless one exists (a repeat after a crash adds nothing);
        whether this call inserted it."""
        with self.connection() as connection:
            cursor = connection.execute(
                """
                INSERT INTO archived_games (game_id, game, status, created_at, updated_at,
                    version, accounts, summary, log, log_sha256)
                VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
                ON CONFLICT (game_id) DO NOTHING
                """,
                (
                    row.game_id,
                    row.game,
                    row.status,
                    row.created_at,
                    row.updated_at,
                    row.version,
                    row.accounts,
                    row.summary,
                    row.log,
                    row.log_sha256,
                ),
            )
            return cursor.rowcount == 1

    def stored(self, game_id: str) -> tuple[bytes, bytes] | None:
        """A game's archived log and the SHA-256 stored with it (None: not archived)."""
        with self.connection() as connection:
            found = connection.execute(
                "SELECT log, log_sha256 FROM archived_games WHERE game_id = %s", (game_id,)
            ).fetchone()
        return None if found is None else (bytes(found[0]), bytes(found[1]))

    def blob(self, game_id: str) -> bytes | None:
        """A game's archived compacted log (None: not archived)."""
        found = self.stored(game_id)
        return None if found is None else found[0]

    def listing_of(self, game_id: str) -> tuple[str, str] | None:
        """The game type and status an archived game is listed under (None: not archived)."""
        with self.connection() as connection:
            found = connection.execute(
                "SELECT game, status FROM archived_games WHERE game_id = %s", (game_id,)
            ).fetchone()
        return None if found is None else (found[0], found[1])

    def summaries(self, game_ids: list[str]) -> dict[str, bytes]:
        """The index summaries of those of `game_ids` that are archived."""
        if not game_ids:
            return {}
        with self.connection() as connection:
            found = connection.execute(
                "SELECT game_id, summary FROM archived_games WHERE game_id = ANY(%s)",
                (list(game_ids),),
            ).fetchall()
        return {game_id: bytes(summary) for game_id, summary in found}

    def page(
        self,
        after: Position | None,
        limit: int,
        status: str | None = None,
        game: str | None = None,
        since: int | None = None,
    ) -> list[tuple[int, str]]:
        """Up to `limit` (created_at, game id) of archived games of `status` and `game`,
        created at or after `since`, newest first strictly after `after` (the order of
        store.core.cursor: by created_at, then id bytewise)."""
        conditions, params = listing_conditions(after, status, game, since)
        query = (
            "SELECT created_at, game_id FROM archived_games WHERE "
            + " AND ".join(conditions)
            + ' ORDER BY created_at DESC, game_id COLLATE "C" DESC LIMIT %s'
        )
        with self.connection() as connection:
            return connection.execute(query, (*params, limit)).fetchall()

    def count(self) -> int:
        with self.connection() as connection:
            return connection.execute("SELECT count(*) FROM archived_games").fetchone()[0]

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool = None


BIGINT = 2**63 - 1


def listing_conditions(
    after: Position | None, status: str | None, game: str | None, since: int | None
) -> tuple[list[str], list]:
    """The WHERE conditions (fixed SQL text) and parameters of a listing page."""
    conditions, params = ["TRUE"], []
    for column, value in (("status", status), ("game", game)):
        if value is not None:
            conditions.append(f"{column} = %s")
            params.append(value)
    if since is not None:
        conditions.append("created_at >= %s")
        params.append(max(-BIGINT, min(BIGINT, int(since))))
    if after is not None:
        score = float(after.score)
        if not score.is_integer():  # no created_at equals it: strictly below it
            conditions.append("created_at <= %s")
            params.append(max(-BIGINT, min(BIGINT, math.floor(score))))
        elif isinstance(after.member, bytes):  # not UTF-8: compared as bytes
            conditions.append(
                "(created_at < %s OR (created_at = %s AND convert_to(game_id, 'UTF8') < %s))"
            )
            bound = max(-BIGINT, min(BIGINT, int(score)))
            params += [bound, bound, after.member]
        else:
            conditions.append('(created_at, game_id COLLATE "C") < (%s, %s)')
            params += [max(-BIGINT, min(BIGINT, int(score))), after.member]
    return conditions, params


_stores: dict[str, ArchiveStore] = {}
_stores_lock = threading.Lock()


def archive_url() -> str | None:
    """KELTIS_ARCHIVE_URL, or None (no archive tier: Redis alone)."""
    return settings.current().archive_url


def archive_from_env() -> ArchiveStore | None:
    """The process's ArchiveStore of KELTIS_ARCHIVE_URL (one per URL), or None unset."""
    url = archive_url()
    if url is None:
        return None
    with _stores_lock:
        store = _stores.get(url)
        if store is None:
            store = _stores[url] = ArchiveStore(url)
        return store


def close_archive(url: str) -> None:
    """Close and forget the process's ArchiveStore of `url` (tests, shutdown)."""
    with _stores_lock:
        store = _stores.pop(url, None)
    if store is not None:
        store.close()
