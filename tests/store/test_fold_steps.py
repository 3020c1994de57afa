"""gamelog.record's fold: its quick step for a move (`_moved`) makes the record that
`dataclasses.replace` makes, field for field, and no cached property of the record before."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from application.games.service import GameService
from devtools.long_games import live_card_game
from gamelog import record as records
from gamelog.record import fold_entries
from store.core.cache import RecordCache


def replaced(record, state, entry):
    return replace(record, state=state, version=entry.n, updated_at=entry.at)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_quick_step_folds_as_replace_does(redis_client, monkeypatch, seed):
    service = GameService(redis_client)
    played, _ = live_card_game(service, 60, random.Random(seed))
    entries = GameService(redis_client, RecordCache()).store.load(played.game_id).entries
    quick = fold_entries(None, played.game_id, entries)
    monkeypatch.setattr(records, "_moved", replaced)
    reference = fold_entries(None, played.game_id, entries)
    assert quick.__dict__.keys() >= {f for f in records._FIELDS}
    for name in records._FIELDS:
        if name != "state":
            assert getattr(quick, name) == getattr(reference, name), name
    rules = quick.rules
    assert rules.state_to_data(quick.state) == rules.state_to_data(reference.state)
    assert quick.status == reference.status and quick.to_move == reference.to_move


def test_a_step_does_not_keep_the_status_cached_before_it(redis_client):
    service = GameService(redis_client)
    played, _ = live_card_game(service, 10, random.Random(3))
    entries = GameService(redis_client, RecordCache()).store.load(played.game_id).entries
    before = fold_entries(None, played.game_id, entries[:-1])
    assert before.status  # cached on `before`
    after = records._moved(before, before.state, entries[-1])
    assert "status" not in after.__dict__
    assert after.version == entries[-1].n and after.updated_at == entries[-1].at
