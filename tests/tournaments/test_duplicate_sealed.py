"""A duplicate deal's secrets stay hidden until every game of the deal is
over. Game 0 and game 1 play the same deal with the seats swapped; while either is not over,
no endpoint shows a spectator anything of either game (its seed, deck, play or replay)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from application.games.service import GameService
from application.tournaments import service as use_cases
from replays.verify import verify
from store.tournaments.records import TournamentStore
from tests.tournaments.stored import card_spec, stored_with_first_game
from tournaments import seeds
from tournaments.spec import make_spec, new_salt

pytestmark = pytest.mark.redis

SEALED_PATHS = ("", "/events", "/events?wait=1", "/moves", "/replay", "/replay.html", "/stream")


@pytest.fixture
def deal(redis_client):
    """A stored 2-game duplicate tournament (one deal, played once per seat rotation)."""
    spec = make_spec("keltis-card", ["greedy", "random"], 2, None, "sealed", format="duplicate")
    spec = replace(spec, salt=new_salt())
    assert spec.games == 2 and spec.plan(0).deal == spec.plan(1).deal == 0
    tid = seeds.new_tournament_id()
    store = TournamentStore(redis_client)
    store.create(tid, spec)
    return tid, spec, store, GameService(redis_client)


def sealed(client, game_id: str) -> list[str]:
    """The paths of the game that answer 403 deal_sealed (and show nothing else)."""
    found = []
    for path in SEALED_PATHS:
        answer = client.get(f"/v1/games/{game_id}{path}")
        if answer.status_code == 403:
            assert answer.json["error"]["code"] == "deal_sealed"
            found.append(path)
        else:  # legal moves are for a seat's token only: 401 to a spectator
            assert answer.status_code == (401 if path == "/moves" else 200), path
    return found


def test_duplicate_games_are_sealed_until_their_deal_is_over(client, deal):
    tid, spec, store, service = deal
    first, second = seeds.game_id(tid, 0), seeds.game_id(tid, 1)
    use_cases.play_game(service, store, tid, spec, 0)  # game 0 over, game 1 not yet made
    assert sealed(client, first) == list(SEALED_PATHS)
    use_cases.load_or_create(service, spec, tid, 1)  # game 1 live
    assert sealed(client, first) == list(SEALED_PATHS)
    assert sealed(client, second) == list(SEALED_PATHS)
    summary = client.get(f"/v1/tournaments/{tid}").json
    assert summary["seed"] is None and summary["salt"] is None
    assert client.get(f"/v1/tournaments/{tid}/archive").status_code == 409
    listed = client.get("/v1/games?limit=100").get_data(as_text=True)
    assert spec.seed not in listed and service.load(first)[0].seed_hex not in listed
    use_cases.play_game(service, store, tid, spec, 1)  # the deal is over: both open
    assert sealed(client, first) == [] and sealed(client, second) == []
    replay = client.get(f"/v1/games/{first}/replay").json
    assert replay["seed"] == service.load(second)[0].seed_hex  # the same deal
    assert verify(replay).ok  # a tournament game's replay (its placement too) verifies


def test_a_rotation_tournament_game_is_never_sealed(client, redis_client):
    tid, _ = stored_with_first_game(redis_client, card_spec("open", 2))
    assert sealed(client, seeds.game_id(tid, 0)) == []
