"""The pool spread over a cluster's slots (store.keys.seeks): every compatible seek is still
paired when the seeks sit on many slots, an entry left by a process that died between a
close's steps frees its place, and the one-shot move of the old `{seeks}` keys."""

from __future__ import annotations

import orjson
import pytest
from redis.crc import key_slot

from application.seeks.service import SeekBounds, TooManySeeks, account_seeks
from store import keys
from store.seeks.migrate import move_legacy_seeks
from store.seeks.records import OPENING_MS, SeekStore
from tests.seeks.conftest import CARD

pytestmark = pytest.mark.redis


def _seated(games, game_id) -> list[str]:
    record, _, _ = games.load(game_id)
    return sorted(p["account"] for p in record.players)


@pytest.mark.cluster_too
def test_every_compatible_seek_is_paired_across_slots(pool, games):
    pools = {
        ("keltis-card", 2): [f"c2{i}" for i in range(6)],
        ("keltis-card", 3): [f"c3{i}" for i in range(3)],
        ("keltis-dice", 2): [f"d2{i}" for i in range(4)],
    }
    opened, pool_of = {}, {}
    for (game, players), names in pools.items():
        for name in names:
            pool.account(name)
            opened[name] = pool.seek(name, game=game, players=players)["id"]
            pool_of[name] = (game, players)
    slots = {key_slot(keys.seek(seek_id).encode()) for seek_id in opened.values()}
    shards = {keys.seeks_open_shard(seek_id) for seek_id in opened.values()}
    assert len(slots) > 1 and len(shards) > 1
    made = pool.run().games
    assert len(made) == 3 + 1 + 2
    seated = [name for game_id in made for name in _seated(games, game_id)]
    assert sorted(seated) == sorted(opened)
    for game_id in made:
        record, _, _ = games.load(game_id)
        assert {pool_of[name] for name in _seated(games, game_id)} == {
            (record.game, len(record.players))
        }


@pytest.mark.cluster_too
def test_an_entry_whose_seek_is_gone_frees_its_place_once_old(pool, games, clock):
    pool.account("ann")
    bounds = SeekBounds(per_account=2, per_address=20)
    first = pool.seek("ann", bounds=bounds)
    pool.seek("ann", bounds=bounds)
    # A process died between a close's steps: the seek's own keys are gone, its entries not.
    games.client.delete(keys.seek(first["id"]))
    with pytest.raises(TooManySeeks):
        pool.seek("ann", bounds=bounds)  # young: it may be an open under way
    clock.advance(OPENING_MS / 1000)
    pool.seek("ann", bounds=bounds)
    assert len(account_seeks(games, pool.records["ann"])) == 2
    assert not games.client.zscore(keys.seeks_of_account("ann"), first["id"])
    pool.run()  # a pass meets the listed id with no seek: takes it off the list
    assert games.client.zscore(keys.seeks_open_of(first["id"]), first["id"]) is None


def _legacy_seek(client, seek_id: str, name: str, address: str, now: int, games=()) -> None:
    """A seek as the pool stored it on the one `{seeks}` slot."""
    data = {
        "id": seek_id,
        "account": name,
        "game": CARD,
        "options": {},
        "players": 2,
        "clock": None,
        "rated": True,
        "max_games": 2,
        "created_at": now,
        "address": address,
    }
    client.hset(keys.legacy_seek(seek_id), mapping={"data": orjson.dumps(data), "since": now})
    client.hset(keys.legacy_seek(seek_id), "seen", now)
    for key in (
        keys.legacy_seeks_open(),
        keys.legacy_seeks_of_account(name.lower()),
        keys.legacy_seeks_of_address(address),
    ):
        client.zadd(key, {seek_id: now})
    if games:
        client.rpush(keys.legacy_seek_games(seek_id), *games)


@pytest.mark.cluster_too
def test_the_old_keys_move_once_and_their_seeks_pair(pool, games, clock):
    client = games.client
    pool.account("ann")
    pool.account("bea")
    now = clock()
    _legacy_seek(client, "old-ann", "ann", "10.0.0.1", now, games=["g-before"])
    _legacy_seek(client, "old-bea", "bea", "10.0.0.2", now)
    recent = keys.legacy_seek_recent_prefix() + "ann"
    client.zadd(recent, {"acct:cat": now})
    client.pexpire(recent, 600_000)
    assert move_legacy_seeks(client) == 2
    assert move_legacy_seeks(client) == 0
    assert not client.exists(keys.legacy_seek("old-ann"), keys.legacy_seeks_open(), recent)
    assert SeekStore(client).recent(["ann"], now - 1) == {"ann": {"acct:cat"}}
    assert SeekStore(client).games(["old-ann"]) == {"old-ann": ["g-before"]}
    (shown,) = account_seeks(games, pool.records["ann"])
    assert shown["id"] == "old-ann"
    made = pool.run().games
    assert len(made) == 1 and _seated(games, made[0]) == ["ann", "bea"]
