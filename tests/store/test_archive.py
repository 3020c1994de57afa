"""The move of compacted games to the archive tier (application.operations.archive):
copy, verify, delete; a crash between any two steps loses nothing and leaves no duplicate;
only games filed longer than KELTIS_ARCHIVE_AFTER ago move; versioned migrations applied
once; without KELTIS_ARCHIVE_URL nothing changes. Real PostgreSQL and Redis servers."""

from __future__ import annotations

import time

import psycopg
import pytest

from application.games.service import GameService
from application.metrics.counters import REGISTRY
from application.operations.archive import (
    CLAIM_MS,
    ArchiveMismatch,
    Outcome,
    archive_after_s,
    archive_due,
    archive_game,
    row_of,
)
from application.operations.compaction import compact_due
from devtools.finished_games import finish_bot_game
from store import keys
from store.archive.queue import ArchiveQueue
from store.archive.schema import MIGRATIONS, migrate
from store.archive.tier import URL_ENV, ArchiveStore, archive_from_env
from store.core.clock import now_ms
from store.core.cursor import Position
from workers.archive import ArchiveThread


class Crash(Exception):
    """A process dying between two steps of a move."""


def reads(games: GameService, game_id: str) -> tuple:
    """What the store gives of a game: its entries, length and token hashes."""
    store = GameService(games.client).store  # no record cache
    loaded = store.load(game_id)
    return (
        store.raw_entries(game_id),
        store.length(game_id),
        loaded.token_hashes,
        list(store.load_latest(game_id).entries),
    )


@pytest.fixture
def games(private_redis, archive_url) -> GameService:
    return GameService(private_redis)


def compacted_game(games: GameService) -> str:
    game_id = finish_bot_game(games).game_id
    assert compact_due(games.client, after_s=0) == 1
    return game_id


def rows(archive: ArchiveStore, game_id: str) -> int:
    with archive.pool.connection() as connection:
        query = "SELECT count(*) FROM archived_games WHERE game_id = %s"
        return connection.execute(query, (game_id,)).fetchone()[0]


def listed(games: GameService, game_id: str) -> int:
    """How often the listing of every game, walked by cursor, lists `game_id`."""
    seen, cursor = [], None
    while True:
        found, cursor = games.list_games(None, None, cursor and Position.decode(cursor), 1)
        seen += [summary["id"] for summary in found]
        if cursor is None:
            return seen.count(game_id)


@pytest.mark.parametrize("step", ["copied", "verified", "deleted", "unlisted"])
def test_a_crash_between_any_two_steps_loses_nothing_and_leaves_no_duplicate(games, archive, step):
    game_id = compacted_game(games)
    before = reads(games, game_id)

    def crash(at: str) -> None:
        if at == step:
            raise Crash(at)

    now = now_ms()
    with pytest.raises(Crash):
        archive_due(games.client, archive, after_s=0, now=now, between=crash)
    assert reads(games, game_id) == before  # whatever the step, the game reads the same
    assert listed(games, game_id) == 1  # in Redis's listing, the archive's, or both: once
    assert rows(archive, game_id) == 1
    assert archive_due(games.client, archive, after_s=0, now=now) == 0  # still claimed
    later = now + CLAIM_MS + 1  # the dead worker's claim lapsed
    archived = archive_due(games.client, archive, after_s=0, now=later)
    assert archived == (0 if step in ("deleted", "unlisted") else 1)
    assert rows(archive, game_id) == 1
    assert games.client.get(keys.packed(game_id)) is None
    assert not games.client.zcard(keys.games_to_archive())
    assert games.client.zscore(keys.games_by_created(), game_id) is None
    assert reads(games, game_id) == before
    assert listed(games, game_id) == 1


def test_moving_a_game_again_changes_nothing(games, archive):
    game_id = compacted_game(games)
    queue = ArchiveQueue(games.client)
    assert archive_game(queue, archive, game_id) is Outcome.ARCHIVED
    assert archive_game(queue, archive, game_id) is Outcome.ALREADY
    assert rows(archive, game_id) == 1
    assert archive_game(queue, archive, "no-such-game-0000000") is Outcome.MISSING


def test_only_games_filed_longer_ago_than_the_setting_move(games, archive, monkeypatch):
    monkeypatch.setenv("KELTIS_ARCHIVE_AFTER", "1h")
    assert archive_after_s() == 3600
    game_id = compacted_game(games)
    now = now_ms()
    assert archive_due(games.client, archive, now=now) == 0
    assert games.client.get(keys.packed(game_id)) is not None
    assert archive_due(games.client, archive, now=now + 3600 * 1000 + 1000) == 1
    assert games.client.get(keys.packed(game_id)) is None


def test_the_setting_defaults_to_a_day_and_refuses_other_forms(monkeypatch):
    monkeypatch.delenv("KELTIS_ARCHIVE_AFTER", raising=False)
    assert archive_after_s() == 86_400
    monkeypatch.setenv("KELTIS_ARCHIVE_AFTER", "90")
    assert archive_after_s() == 90
    monkeypatch.setenv("KELTIS_ARCHIVE_AFTER", "2d")
    assert archive_after_s() == 2 * 86_400
    monkeypatch.setenv("KELTIS_ARCHIVE_AFTER", "soon")
    with pytest.raises(ValueError, match="KELTIS_ARCHIVE_AFTER"):
        archive_after_s()


def test_another_log_under_the_id_in_the_archive_keeps_redis_copy(games, archive):
    game_id = compacted_game(games)
    other = compacted_game(games)
    held = ArchiveQueue(games.client).held(other)
    archive.put(row_of(game_id, held.blob, held.summary))  # a wrong row under this game's id
    with pytest.raises(ArchiveMismatch):
        archive_game(ArchiveQueue(games.client), archive, game_id)
    assert games.client.get(keys.packed(game_id)) is not None
    assert archive_due(games.client, archive, after_s=0, now=now_ms() + CLAIM_MS + 1) == 1
    assert games.client.get(keys.packed(game_id)) is not None  # skipped, kept in Redis


def test_a_game_not_compacted_yet_is_left_alone(games, archive):
    record, _, _ = games.create("keltis-dice", [{"name": "a"}, {"bot": "random"}], {})
    ArchiveQueue(games.client).file(record.game_id, 0)  # a wrong filing
    assert archive_game(ArchiveQueue(games.client), archive, record.game_id) is Outcome.LIVE
    assert archive_due(games.client, archive, after_s=0) == 0
    assert rows(archive, record.game_id) == 0
    assert games.client.llen(keys.log(record.game_id)) == record.version


def test_migrations_are_versioned_and_applied_once(archive_url):
    with psycopg.connect(archive_url, autocommit=True) as connection:
        assert migrate(connection) == len(MIGRATIONS)
        assert migrate(connection) == len(MIGRATIONS)  # again: nothing to apply
        versions = connection.execute("SELECT version FROM keltis_schema ORDER BY 1").fetchall()
    assert [v for (v,) in versions] == list(range(1, len(MIGRATIONS) + 1))


def test_without_the_setting_nothing_changes(private_redis, monkeypatch):
    monkeypatch.delenv(URL_ENV, raising=False)
    games = GameService(private_redis)
    assert archive_from_env() is None and games.store.archive is None
    game_id = finish_bot_game(games).game_id
    assert compact_due(private_redis, after_s=0) == 1
    assert not private_redis.exists(keys.games_to_archive())  # nothing filed
    assert archive_due(private_redis, after_s=0) == 0
    assert private_redis.get(keys.packed(game_id)) is not None


def test_the_worker_thread_moves_due_games(games, private_redis_server, monkeypatch):
    monkeypatch.setenv("KELTIS_ARCHIVE_AFTER", "0")
    game_id = compacted_game(games)
    thread = ArchiveThread(private_redis_server.url, every_s=0.05)
    thread.start()
    try:
        ends = time.monotonic() + 60
        while games.client.get(keys.packed(game_id)) is not None:
            assert time.monotonic() < ends, "the archive thread did not move the game"
            time.sleep(0.05)
    finally:
        thread.stop()
        thread.join(30)
    assert reads(games, game_id)[1] > 0


def archive_count(outcome: str) -> float:
    """keltis_archive_games_total{outcome} as this process's registry holds it."""
    value = REGISTRY.get_sample_value("keltis_archive_games_total", {"outcome": outcome})
    return value or 0.0


def test_each_move_is_counted_for_the_metrics(games, archive):
    outcomes = [outcome.value for outcome in Outcome] + ["skipped"]
    before = {outcome: archive_count(outcome) for outcome in outcomes}
    compacted_game(games)
    assert archive_due(games.client, archive, after_s=0) == 1
    moved = {outcome: archive_count(outcome) - before[outcome] for outcome in outcomes}
    assert moved == {outcome: float(outcome == "archived") for outcome in outcomes}
