"""The event store over a real Redis: atomic append, idempotency, keys, entry format."""

from __future__ import annotations

import json
import secrets

import pytest

from gamelog.entries import Entry, decode, encode, make_batch
from gamelog.errors import UnreadableEntry
from store import keys
from store.games.eventstore import AppendRequest, EventStore


@pytest.fixture
def store(redis_client):
    return EventStore(redis_client)


def new_id() -> str:
    return secrets.token_urlsafe(16)


def batch(first: int, count: int, cmd=None) -> list[Entry]:
    events = [{"type": "tick", "i": i} for i in range(count)]
    return make_batch(first, events, at=1000, by=0, cmd=cmd)


def test_every_key_of_a_game_carries_its_hash_tag():
    game_id = new_id()
    for key in (keys.log(game_id), keys.idempotency(game_id), keys.tokens(game_id)):
        assert f"{{{game_id}}}" in key
    assert keys.game_id_from_log_key(keys.log(game_id)) == game_id


def test_append_checks_the_expected_version(store):
    game_id = new_id()
    assert store.append(AppendRequest(game_id, 0, batch(1, 2))).version == 2
    conflict = store.append(AppendRequest(game_id, 0, batch(1, 1)))
    assert (conflict.status, conflict.version) == ("conflict", 2)
    assert store.append(AppendRequest(game_id, 2, batch(3, 1))).version == 3
    assert [e.n for e in store.load(game_id).entries] == [1, 2, 3]


def test_an_idempotency_key_returns_the_stored_first_answer_and_appends_nothing(store):
    game_id = new_id()
    first = store.append(
        AppendRequest(game_id, 0, batch(1, 1), "0:key", {"status": 200, "body": {"a": 1}})
    )
    assert first.status == "ok"
    again = store.append(
        AppendRequest(game_id, 1, batch(2, 1), "0:key", {"status": 200, "body": {"a": 2}})
    )
    assert (again.status, again.first_answer) == ("dup", {"status": 200, "body": {"a": 1}})
    assert store.length(game_id) == 1
    snapshot = store.load(game_id, idempotency_field="0:key")
    assert snapshot.prior_answer == {"status": 200, "body": {"a": 1}}


def test_token_hashes_are_recorded_with_the_batch(store):
    game_id = new_id()
    store.append(
        AppendRequest(game_id, 0, batch(1, 1), new_token_hashes={0: "ab" * 32, 2: "cd" * 32})
    )
    assert store.load(game_id).token_hashes == {0: "ab" * 32, 2: "cd" * 32}
    failed = store.append(AppendRequest(game_id, 0, batch(1, 1), new_token_hashes={1: "ef" * 32}))
    assert failed.status == "conflict"
    assert 1 not in store.load(game_id).token_hashes


def test_load_returns_only_entries_after_a_version_and_within_a_limit(store):
    game_id = new_id()
    store.append(AppendRequest(game_id, 0, batch(1, 10)))
    assert [e.n for e in store.load(game_id, after=7).entries] == [8, 9, 10]
    assert [e.n for e in store.load(game_id, after=2, limit=3).entries] == [3, 4, 5]


def test_entries_are_compact_versioned_json_with_the_command_on_the_first_only(redis_client, store):
    game_id = new_id()
    store.append(AppendRequest(game_id, 0, batch(1, 2, cmd={"action": "pass"})))
    raw = [json.loads(r) for r in redis_client.lrange(keys.log(game_id), 0, -1)]
    assert raw[0] == {
        "v": 1,
        "n": 1,
        "at": 1000,
        "by": 0,
        "cmd": {"action": "pass"},
        "e": {"type": "tick", "i": 0},
    }
    assert "cmd" not in raw[1]
    assert b" " not in redis_client.lindex(keys.log(game_id), 0)


def test_an_entry_of_an_unknown_format_version_is_refused():
    entry = Entry(n=1, at=5, by=None, event={"type": "x"})
    assert decode(encode(entry)) == entry
    with pytest.raises(UnreadableEntry):
        decode('{"v": 99, "n": 1, "at": 5, "by": null, "e": {"type": "x"}}')


def test_the_log_is_never_trimmed(store):
    game_id = new_id()
    for version in range(50):
        store.append(AppendRequest(game_id, version, batch(version + 1, 1)))
    assert store.length(game_id) == 50
    assert store.load(game_id).entries[0].n == 1
