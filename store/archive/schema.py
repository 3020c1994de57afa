"""The archive tier's schema in PostgreSQL, as numbered migrations applied at start.

`keltis_schema` records each applied migration's number. `migrate` applies the ones not
recorded yet, each in its own transaction together with its record, under an advisory lock
(several processes starting at once apply each migration once). Running it again changes
nothing. A new migration is appended to MIGRATIONS, never edited once released.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import psycopg

LOCK_KEY = 0x6B656C74  # pg_advisory_xact_lock key of the migrations ("kelt")

SCHEMA_TABLE = """
CREATE TABLE IF NOT EXISTS keltis_schema (
    version integer PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
)
"""

MIGRATIONS: list[str] = [
    # 1: one row per archived game: its compacted log (store.games.packing, byte for byte the blob
    # Redis held) with its SHA-256, its index summary as Redis held it, and the columns the
    # listings and the export filter and walk on (newest first by (created_at, game_id),
    # ids compared bytewise as Redis orders them: COLLATE "C").
    """
    CREATE TABLE archived_games (
        game_id text PRIMARY KEY,
        game text NOT NULL,
        status text NOT NULL,
        created_at bigint NOT NULL,
        updated_at bigint NOT NULL,
        version integer NOT NULL,
        accounts text[] NOT NULL,
        summary bytea NOT NULL,
        log bytea NOT NULL,
        log_sha256 bytea NOT NULL,
        archived_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX archived_games_by_created ON archived_games (created_at, game_id COLLATE "C");
    CREATE INDEX archived_games_by_status
        ON archived_games (status, created_at, game_id COLLATE "C");
    CREATE INDEX archived_games_by_game
        ON archived_games (game, status, created_at, game_id COLLATE "C");
    CREATE INDEX archived_games_by_account ON archived_games USING gin (accounts);
    """,
]


def migrate(connection: psycopg.Connection) -> int:
    """Apply the migrations not applied yet; the schema's version after them."""
    with connection.transaction():
        connection.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY,))
        connection.execute(SCHEMA_TABLE)
        row = connection.execute("SELECT coalesce(max(version), 0) FROM keltis_schema").fetchone()
        applied = row[0]
        for number, statement in enumerate(MIGRATIONS, start=1):
            if number <= applied:
                continue
            connection.execute(statement)
            connection.execute("INSERT INTO keltis_schema (version) VALUES (%s)", (number,))
    return len(MIGRATIONS)
