"""Wake-ups on a Redis Cluster of Redis >= 7: a seek opening (the pairing threads'
doorbell), an account seat coming to move (the webhook threads'), a tournament cancelled and
an arena closed (their streams') are told with SPUBLISH, which the listeners' sharded
subscriptions hear, as they hear PUBLISH on a standalone Redis."""

from __future__ import annotations

import dataclasses
import uuid

import pytest

from application.accounts import auth
from application.games.service import GameService
from store import keys
from store.arenas.records import ArenaStore
from store.core import notify
from store.core.cache import RecordCache
from store.games.eventstore import AppendRequest
from store.seeks.records import SeekStore
from store.tournaments.records import TournamentStore
from tests.store import toy_game

pytestmark = pytest.mark.redis

WAKE_S = 3.0  # under the threads' own periodic look; a miss would cost them a period


@pytest.fixture
def subscriber(redis7_cluster):
    made = notify.Subscriber(redis7_cluster.client())
    yield made
    made.close()


def test_a_seek_rings_the_pairing_threads_over_sharded_pub_sub(redis7_cluster, subscriber):
    with subscriber.listen(keys.seeks_channel()) as doorbell:
        SeekStore(redis7_cluster.client()).ring()
        assert subscriber.is_sharded
        assert doorbell.wait(WAKE_S) is not None


def test_an_account_to_move_rings_the_webhook_threads_on_a_cluster(
    redis7_cluster, subscriber, monkeypatch
):
    toy = toy_game.register(monkeypatch)
    service = GameService(redis7_cluster.client(), RecordCache())
    record, _, _ = service.create(toy, [{"name": "a"}, {"name": "b"}], {})
    before, _, _ = service.load(record.game_id)
    move = before.rules.legal_moves(before.state, before.to_move)[0]
    actor = auth.Actor(seat=before.to_move)
    batch, after = service.decide(before, actor, move)
    # Both seats held by accounts: the seat to move next is an account's.
    seated = tuple({**player, "account": f"acc{seat}"} for seat, player in enumerate(after.players))
    after = dataclasses.replace(after, players=seated)
    with subscriber.listen(keys.account_turns_channel()) as doorbell:
        request = AppendRequest(after.game_id, before.version, batch)
        assert service.committer.commit(request, after, before).ok
        assert doorbell.wait(WAKE_S) is not None


def test_a_cancelled_tournament_and_a_closed_arena_wake_their_streams_on_a_cluster(
    redis7_cluster, subscriber
):
    client = redis7_cluster.client()
    tid, aid = f"t{uuid.uuid4().hex[:12]}", f"a{uuid.uuid4().hex[:12]}"
    with subscriber.listen(keys.tournament_channel(tid)) as tournament:
        TournamentStore(client).cancel(tid)
        assert tournament.wait(WAKE_S) is not None
    with subscriber.listen(keys.arena_channel(aid)) as arena:
        ArenaStore(client).close(aid, 1)
        assert arena.wait(WAKE_S) is not None
