"""Snapshots of long games (gamelog.snapshot): written with the append that crosses every
EVERY versions, read by a process that has never seen the game so that it folds only the
entries after them, and ignored whenever they cannot be trusted."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

from api.games import presenters
from application.games.service import GameService
from devtools.long_games import live_card_game
from gamelog import snapshot
from gamelog.record import fold_entries
from store import keys
from store.core.cache import RecordCache
from store.games.eventstore import SNAPSHOT_WINDOW


@pytest.fixture
def service(redis_client):
    return GameService(redis_client)


def long_game(service: GameService, version: int, seed: int = 1):
    """A live 2-player card game of two people played up to `version` (or just past it)."""
    return live_card_game(service, version, random.Random(seed))


def same(first, second) -> bool:
    """Two records equal in every field, their states compared as data."""
    rules = first.rules
    return replace(first, state=None) == replace(second, state=None) and (
        rules.state_to_data(first.state) == rules.state_to_data(second.state)
    )


def cold_read(redis_client, game_id: str):
    """What a process that has never seen the game reads and folds."""
    fresh = GameService(redis_client, RecordCache())
    read = fresh.store.load_latest(game_id)
    record, _, _ = fresh.load(game_id)
    return read, record


def test_a_snapshot_is_written_with_the_batch_that_crosses_a_multiple_of_every(
    service, redis_client
):
    record, _ = long_game(service, 3 * snapshot.EVERY + 5)
    stored = snapshot.decode(redis_client.get(keys.snapshot(record.game_id)))
    assert stored is not None
    at = stored.record.version
    assert at // snapshot.EVERY == record.version // snapshot.EVERY
    assert at > (record.version // snapshot.EVERY) * snapshot.EVERY - snapshot.EVERY
    full = GameService(redis_client, RecordCache()).store.load(record.game_id)
    folded = fold_entries(None, record.game_id, [e for e in full.entries if e.n <= at])
    assert same(stored.record, folded)


def test_a_cold_read_folds_only_the_entries_after_the_snapshot(service, redis_client):
    record, _ = long_game(service, 150)
    read, cold = cold_read(redis_client, record.game_id)
    assert read.base is not None
    assert len(read.entries) < snapshot.EVERY + 10
    assert read.entries[0].n == read.base.version + 1
    assert same(cold, record)


def test_a_short_game_is_read_whole_in_one_window(service, redis_client):
    record, _ = long_game(service, 12)
    read, cold = cold_read(redis_client, record.game_id)
    assert read.base is None and len(read.entries) == record.version
    assert same(cold, record)


@pytest.mark.parametrize(
    "spoil",
    [
        pytest.param(lambda blob: b"not json", id="unreadable"),
        pytest.param(lambda blob: blob.replace(b'"f":1', b'"f":99'), id="other-format"),
        pytest.param(lambda blob: re.sub(rb'"sf":\d+', b'"sf":99', blob), id="other-state-format"),
        pytest.param(lambda blob: blob.replace(b'"crc":', b'"crc":1'), id="other-entry"),
        pytest.param(None, id="missing"),
    ],
)
def test_a_snapshot_that_cannot_be_trusted_is_ignored_and_the_log_folded(
    service, redis_client, spoil
):
    record, tokens = long_game(service, SNAPSHOT_WINDOW + 40)
    key = keys.snapshot(record.game_id)
    if spoil is None:
        redis_client.delete(key)
    else:
        blob = redis_client.get(key)
        spoiled = spoil(blob)
        assert spoiled != blob  # the spoiler found what it spoils
        redis_client.set(key, spoiled)
    read, cold = cold_read(redis_client, record.game_id)
    assert read.base is None and len(read.entries) == record.version
    assert same(cold, record)
    # and the game plays on: the batch that crosses the next multiple writes a new one
    crossing = (record.version // snapshot.EVERY + 1) * snapshot.EVERY
    while record.version < crossing:
        seat = record.to_move
        move = presenters.legal_moves(record, seat)[0]
        record = service.play(record.game_id, tokens[seat], move, lambda a, _b, _s: a).body
        if record.finished:
            pytest.skip("the game ended before its next snapshot")
    assert snapshot.decode(redis_client.get(key)).record.version == record.version


def test_a_snapshot_ahead_of_the_log_is_ignored(service, redis_client):
    """A log restored shorter than its snapshot (a lost tail): the snapshot is not used."""
    record, _ = long_game(service, 2 * snapshot.EVERY + 3)
    key = keys.snapshot(record.game_id)
    stored = snapshot.decode(redis_client.get(key))
    redis_client.ltrim(keys.log(record.game_id), 0, stored.record.version - 2)
    read, cold = cold_read(redis_client, record.game_id)
    assert read.base is None
    assert cold.version == stored.record.version - 1
