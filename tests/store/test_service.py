"""The application service: folding, the state cache, joins racing, ids and tokens."""

from __future__ import annotations

import threading

import pytest

from application.accounts.errors import Unauthenticated
from application.games.errors import SeatUnavailable, VersionConflict
from application.games.service import GameService
from store import keys
from store.core.cache import LoadedGame, RecordCache
from store.games import tokens
from tests.store import toy_game


@pytest.fixture
def toy(monkeypatch):
    return toy_game.register(monkeypatch)


@pytest.fixture
def service(redis_client):
    return GameService(redis_client)


def render(record, batch, seat):
    return {"version": record.version}


def test_a_cached_game_loads_only_the_entries_after_its_version(service, toy, monkeypatch):
    record, seat_tokens, _ = service.create(toy, [{"name": "a"}, {"name": "b"}], {})
    service.play(record.game_id, seat_tokens[0], {"action": "pass"}, render)
    seen = []
    original = service.store.load

    def spy(game_id, after=0, *args, **kwargs):
        seen.append(after)
        return original(game_id, after, *args, **kwargs)

    monkeypatch.setattr(service.store, "load", spy)
    loaded, _, _ = service.load(record.game_id)
    assert seen == [loaded.version]


def test_a_fresh_process_folds_the_same_state_from_the_log(service, toy, redis_client):
    record, seat_tokens, _ = service.create(toy, [{"name": "a"}, {"name": "b"}], {})
    for _ in range(3):
        current, _, _ = service.load(record.game_id)
        seat = current.to_move
        move = current.rules.legal_moves(current.state, seat)[0]
        service.play(record.game_id, seat_tokens[seat], move, render)
    cached, _, _ = service.load(record.game_id)
    fresh, _, _ = GameService(redis_client, RecordCache()).load(record.game_id)
    assert (fresh.version, fresh.state, fresh.players) == (
        cached.version,
        cached.state,
        cached.players,
    )


def test_two_joins_racing_for_one_seat_give_it_to_one(service, toy, redis_client):
    record, _, _ = service.create(toy, [{"name": "a"}, {"open": True}, {"open": True}], {})
    outcomes = []

    def join(name):
        try:
            GameService(redis_client, RecordCache()).join(record.game_id, 1, name)
            outcomes.append("ok")
        except SeatUnavailable:
            outcomes.append("taken")

    threads = [threading.Thread(target=join, args=(f"p{i}",)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["ok", "taken", "taken", "taken"]


def test_a_move_without_expected_version_retries_on_a_race_but_one_with_it_does_not(
    service, toy, redis_client
):
    record, seat_tokens, _ = service.create(toy, [{"name": "a"}, {"name": "b"}], {})
    other = GameService(redis_client, RecordCache())
    other.load(record.game_id)  # `other` caches the current version
    service.play(record.game_id, seat_tokens[0], {"action": "pass"}, render)
    with pytest.raises(VersionConflict) as stale:
        other.play(
            record.game_id,
            seat_tokens[1],
            {"action": "pass"},
            render,
            expected_version=record.version,
        )
    assert stale.value.current_version == record.version + 1
    answer = other.play(record.game_id, seat_tokens[1], {"action": "pass"}, render)
    assert answer.body == {"version": record.version + 2}


def test_R2_tokens_have_at_least_128_random_bits_and_name_their_seat():
    token = tokens.new_token("gameid", 3)
    claim = tokens.parse(token)
    assert (claim.game_id, claim.seat) == ("gameid", 3)
    assert len(token.split(".")[2]) >= 22
    assert tokens.matches(claim, tokens.digest(token))
    # Another last character, whatever the random one was: "A" alone is the same one time in 64.
    changed = token[:-1] + ("B" if token.endswith("A") else "A")
    assert changed != token
    assert not tokens.matches(tokens.parse(changed), tokens.digest(token))
    assert tokens.parse("no-dots") is None


def test_the_cache_keeps_the_newest_version_and_a_bounded_size(service, toy):
    cache = RecordCache(capacity=2)
    first, _, _ = service.create(toy, [{"name": "a"}, {"open": True}], {})
    joined, _ = service.join(first.game_id, 1, "b")
    cache.put(LoadedGame(joined))
    cache.put(LoadedGame(first))
    assert cache.get(first.game_id).record.version == joined.version
    for _ in range(2):
        other, _, _ = service.create(toy, [{"name": "a"}, {"open": True}], {})
        cache.put(LoadedGame(other))
    assert cache.get(first.game_id) is None


def test_a_lost_race_writes_no_index_entry(service, toy, redis_client, monkeypatch):
    record, seat_tokens, _ = service.create(toy, [{"name": "a"}, {"name": "b"}], {})
    racer = GameService(redis_client, RecordCache())
    stale = racer.load_game(record.game_id)
    racer.cache.discard(record.game_id)  # the race of a load, not of a cached copy (below)
    service.play(record.game_id, seat_tokens[0], {"action": "pass"}, render)
    real_load = racer.load_game
    calls = []

    def stale_first(game_id, field=None):
        calls.append(game_id)
        return stale if len(calls) == 1 else real_load(game_id, field)

    monkeypatch.setattr(racer, "load_game", stale_first)
    card_move = record.rules.legal_moves(record.state, 0)[0]  # 3 events, unlike a pass
    with pytest.raises(VersionConflict):
        racer.play(
            record.game_id, seat_tokens[0], card_move, render, expected_version=record.version
        )
    assert calls == [record.game_id]  # the refused append cost no reload
    listed = {g["id"]: g for g in service.list_games(None, toy, None, 100)[0]}
    assert listed[record.game_id]["version"] == record.version + 1
    assert listed[record.game_id]["to_move"] == 1


def test_a_move_decided_on_a_stale_cached_copy_is_not_appended_nor_indexed(
    service, toy, redis_client
):
    record, seat_tokens, _ = service.create(toy, [{"name": "a"}, {"name": "b"}], {})
    racer = GameService(redis_client, RecordCache())
    racer.load(record.game_id)  # the racer's process caches this version
    service.play(record.game_id, seat_tokens[0], {"action": "pass"}, render)
    card_move = record.rules.legal_moves(record.state, 0)[0]
    with pytest.raises(VersionConflict):
        racer.play(
            record.game_id, seat_tokens[0], card_move, render, expected_version=record.version
        )
    assert redis_client.llen(keys.log(record.game_id)) == record.version + 1
    listed = {g["id"]: g for g in service.list_games(None, toy, None, 100)[0]}
    assert listed[record.game_id]["version"] == record.version + 1
    assert listed[record.game_id]["to_move"] == 1


def test_a_move_on_a_cached_copy_still_needs_the_seats_own_token(service, toy, redis_client):
    record, seat_tokens, _ = service.create(toy, [{"name": "a"}, {"name": "b"}], {})
    forged = seat_tokens[0].rsplit(".", 1)[0] + ".not-the-secret"
    card_move = record.rules.legal_moves(record.state, 0)[0]
    assert service.cache.get(record.game_id) is not None
    with pytest.raises(Unauthenticated):
        service.play(record.game_id, forged, card_move, render)
    assert redis_client.llen(keys.log(record.game_id)) == record.version
    listed = {g["id"]: g for g in service.list_games(None, toy, None, 100)[0]}
    assert listed[record.game_id]["version"] == record.version


def test_the_index_rebuild_skips_a_log_that_is_not_a_game(redis_client):
    from gamelog.errors import CorruptLog

    service = GameService(redis_client)
    stray = "stray-log-0000000000"
    redis_client.rpush(keys.log(stray), '{"v":1,"n":1,"at":1,"by":null,"e":{"type":"x"}}')
    try:
        with pytest.raises(CorruptLog):
            service.load(stray)
        assert service.rebuild_index() >= 0  # the stray log is skipped, not fatal
    finally:
        redis_client.delete(keys.log(stray))


def test_a_move_after_a_script_flush_is_appended_and_indexed_once(service, toy, redis_client):
    """A server that lost its scripts (a restart, SCRIPT FLUSH) ran nothing of the commit:
    the script is loaded and the commit sent again, whole."""
    record, seat_tokens, _ = service.create(toy, [{"name": "a"}, {"name": "b"}], {})
    redis_client.script_flush()
    service.play(record.game_id, seat_tokens[0], {"action": "pass"}, render)
    assert redis_client.llen(keys.log(record.game_id)) == record.version + 1
    listed = {g["id"]: g for g in service.list_games(None, toy, None, 100)[0]}
    assert listed[record.game_id]["version"] == record.version + 1
