"""A cancelled tournament reveals its seed and salt as a finished one does, once no game of
it is live (R2: a live game's deck follows from them; R3: the games it played re-derive from
the revealed seed): while a game job is at work, or a turn-by-turn game is still in play,
only the commitment shows."""

from __future__ import annotations

import pytest

from application.tournaments import open_tournaments
from application.tournaments import service as use_cases
from store.core.clock import now_ms
from tests.tournaments.open_harness import OpenTournament
from tests.tournaments.stored import card_spec, stored_with_first_game
from tournaments import seeds

pytestmark = pytest.mark.redis


def assert_revealed(shown: dict, spec, game_seed_hex: str, deal: int) -> None:
    """The revealed seed and salt open the commitment and re-derive game `deal`'s seed."""
    assert (shown["seed"], shown["salt"]) == (spec.seed, spec.salt)
    assert shown["seed_sha256"] == seeds.seed_sha256(shown["seed"], shown["salt"])
    assert seeds.game_seed(shown["seed"], deal, shown["salt"]).hex() == game_seed_hex


def test_a_cancelled_tournament_reveals_its_seed_once_no_game_job_is_at_work(client, redis_client):
    spec = card_spec("cut", 4)
    tid, store = stored_with_first_game(redis_client, spec)
    url = f"/v1/tournaments/{tid}"
    assert client.get(url).json["seed"] is None  # running
    assert store.cancel(tid)
    store.take_lease(tid, 0)  # a job at work: a game of it may still be played
    held = client.get(url).json
    assert held["status"] == "cancelled" and held["seed"] is None and held["salt"] is None
    store.take_lease(tid, 0, now_ms() - use_cases.LEASE_FRESH_MS - 1)  # a dead worker's
    shown = client.get(url).json
    replay = client.get(f"/v1/games/{seeds.game_id(tid, 0)}/replay").json
    assert_revealed(shown, spec, replay["seed"], spec.plan(0).deal)
    export = client.get(f"{url}/standings.json").json
    assert (export["seed"], export["salt"]) == (spec.seed, spec.salt)


def test_a_cancelled_turn_by_turn_tournament_reveals_once_its_game_in_play_is_cancelled(
    private_redis, private_redis_server
):
    t = OpenTournament(private_redis, private_redis_server.url)
    assert t.advance().launched == [0]
    url = f"/v1/tournaments/{t.tid}"
    assert t.store.cancel(t.tid)  # cancelled, its game not yet marked: still in play
    held = t.http.get(url).json
    assert held["status"] == "cancelled" and held["seed"] is None and held["salt"] is None
    open_tournaments.advance(t.service, t.store, t.tid)  # marks the game in play cancelled
    assert t.service.load(seeds.game_id(t.tid, 0))[0].cancelled
    game_seed = t.service.load(seeds.game_id(t.tid, 0))[0].seed_hex
    assert_revealed(t.http.get(url).json, t.spec, game_seed, t.spec.plan(0).deal)
