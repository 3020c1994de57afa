"""Compaction of finished games: one blob per game, every read path unchanged, idempotent,
crash-safe between its two steps, live games untouched, appends refused at the version."""

from __future__ import annotations

import subprocess
import sys

import orjson
import pytest

from application.bots.turns import play_bot_turns
from application.games.service import GameService
from application.operations.compaction import Outcome, compact, compact_due
from replays.verify import verify
from store import keys
from store.core.cache import RecordCache
from store.games.compaction import CompactionStore, Step
from store.games.eventstore import AppendRequest, AppendStatus
from tests.store import toy_game

CARD = "keltis-card"
DECK_SEED = bytes(range(32))  # one deck for every test game; the bots still choose freely


@pytest.fixture
def service(redis_client):
    return GameService(redis_client)


def finished_card_game(service) -> str:
    """A whole 2-player card game of two built-in bots, dealt from DECK_SEED."""
    record, _, _ = service.create(CARD, [{"bot": "greedy"}, {"bot": "random"}], {}, seed=DECK_SEED)
    while not record.finished:
        play_bot_turns(service, record.game_id, record.version)
        record, _, _ = service.load(record.game_id)
    return record.game_id


def game_keys(client, game_id: str) -> set[str]:
    return {k.decode() for k in client.scan_iter(match=f"*{{{game_id}}}*")}


def reads(client, game_id: str, token: str | None = None) -> dict:
    """Every read path over HTTP, as bytes."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    found = {}
    for path in ("", "/events", "/events?after=5&limit=7", "/replay"):
        response = client.get(f"/v1/games/{game_id}{path}", headers=headers)
        assert response.status_code == 200, (path, response.json)
        found[path] = response.data
    return found


def test_a_compacted_game_reads_byte_for_byte_as_before(client, redis_client, service):
    game_id = finished_card_game(service)
    before = reads(client, game_id)
    assert compact(CompactionStore(redis_client), game_id) is Outcome.COMPACTED
    assert game_keys(redis_client, game_id) == {keys.packed(game_id)}
    fresh = GameService(redis_client, RecordCache())
    assert fresh.store.length(game_id) == service.store.length(game_id) > 60
    assert reads(client, game_id) == before
    replay = orjson.loads(before["/replay"])
    assert verify(orjson.loads(reads(client, game_id)["/replay"])).ok
    assert replay == fresh.replay(game_id)


def test_a_finished_card_game_compacts_under_4000_bytes(redis_client, service):
    game_id = finished_card_game(service)
    assert compact(CompactionStore(redis_client), game_id) is Outcome.COMPACTED
    used = sum(redis_client.memory_usage(k, samples=0) for k in game_keys(redis_client, game_id))
    assert used <= 4000


def test_compaction_is_idempotent(redis_client, service):
    game_id = finished_card_game(service)
    store = CompactionStore(redis_client)
    assert compact(store, game_id) is Outcome.COMPACTED
    blob = redis_client.get(keys.packed(game_id))
    assert compact(store, game_id) is Outcome.ALREADY
    assert redis_client.get(keys.packed(game_id)) == blob


def test_a_live_game_is_left_alone(redis_client, service):
    record, _, _ = service.create(CARD, [{"name": "ann"}, {"bot": "random"}], {})
    before = game_keys(redis_client, record.game_id)
    log = redis_client.lrange(keys.log(record.game_id), 0, -1)
    store = CompactionStore(redis_client)
    redis_client.zadd(keys.games_to_compact(), {record.game_id: 0})  # a wrong index entry
    compact_due(redis_client, after_s=0)  # other finished games may be compacted too
    assert game_keys(redis_client, record.game_id) == before
    assert redis_client.lrange(keys.log(record.game_id), 0, -1) == log
    assert compact(store, record.game_id) is Outcome.LIVE


def test_the_finishing_append_files_the_game_for_compaction(private_redis):
    # A Redis of its own: on the shared one, earlier tests' finished games fill the batch.
    game_id = finished_card_game(GameService(private_redis))
    assert private_redis.zscore(keys.games_to_compact(), game_id) is not None
    assert compact_due(private_redis, after_s=0) == 1
    assert private_redis.zscore(keys.games_to_compact(), game_id) is None
    assert game_keys(private_redis, game_id) == {keys.packed(game_id)}


def test_a_crash_between_the_steps_loses_nothing(client, redis_client, service):
    game_id = finished_card_game(service)
    before = reads(client, game_id)
    store = CompactionStore(redis_client)
    entries, hashes = store.live_log(game_id)
    from store.games import packing

    assert store.write(game_id, entries, packing.pack(entries, hashes)) is Step.WRITTEN
    # the process died here: both the blob and the list are stored, and read the same
    assert reads(client, game_id) == before
    assert compact(store, game_id) is Outcome.COMPACTED
    assert reads(client, game_id) == before


def test_a_worker_killed_between_the_steps_loses_nothing(client, redis_client, redis_url, service):
    game_id = finished_card_game(service)
    before = reads(client, game_id)
    code = (
        "import sys, redis; from application.operations.compaction import compact;"
        "from store.games.compaction import CompactionStore;"
        "compact(CompactionStore(redis.Redis.from_url(sys.argv[1])), sys.argv[2])"
    )
    # The worker dies the moment its first step (the blob's write) returns.
    dying = (
        "import os; from store.games.compaction import CompactionStore;"
        "write = CompactionStore.write;"
        "CompactionStore.write = lambda self, *args: (write(self, *args), os._exit(86));"
    ) + code
    died = subprocess.run([sys.executable, "-c", dying, redis_url, game_id], check=False)
    assert died.returncode == 86
    assert {keys.log(game_id), keys.packed(game_id)} <= game_keys(redis_client, game_id)
    assert reads(client, game_id) == before
    subprocess.run([sys.executable, "-c", code, redis_url, game_id], check=True)
    assert game_keys(redis_client, game_id) == {keys.packed(game_id)}
    assert reads(client, game_id) == before


def test_an_append_to_a_compacted_game_is_a_conflict_at_its_version(redis_client, service):
    game_id = finished_card_game(service)
    version = service.store.length(game_id)
    compact(CompactionStore(redis_client), game_id)
    entry = service.store.load(game_id, version - 1).entries[0]
    result = service.store.append(AppendRequest(game_id, version, [entry]))
    assert (result.status, result.version) == (AppendStatus.CONFLICT, version)
    assert service.store.length(game_id) == version


def test_a_seat_of_a_compacted_game_still_reads_it_and_cannot_move(
    client, redis_client, monkeypatch
):
    toy = toy_game.register(monkeypatch)
    service = GameService(redis_client)
    record, seat_tokens, _ = service.create(toy, [{"name": "a"}, {"name": "b"}], {})
    while not record.finished:
        move = record.rules.legal_moves(record.state, record.to_move)[0]
        service.play(record.game_id, seat_tokens[record.to_move], move, lambda *a: {})
        record, _, _ = service.load(record.game_id)
    game_id = record.game_id
    before = client.get(
        f"/v1/games/{game_id}", headers={"Authorization": f"Bearer {seat_tokens[0]}"}
    )
    assert compact(CompactionStore(redis_client), game_id) is Outcome.COMPACTED
    headers = {"Authorization": f"Bearer {seat_tokens[0]}"}
    after = client.get(f"/v1/games/{game_id}", headers=headers)
    assert (after.status_code, after.data) == (200, before.data)
    moved = client.post(f"/v1/games/{game_id}/moves", json={"action": "pass"}, headers=headers)
    assert moved.status_code == 409
    assert moved.json["error"]["code"] != "unauthenticated"
