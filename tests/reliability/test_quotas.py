"""Per-client quotas on creating games and tournaments and on games waiting for seats:
429 `quota_exceeded` in the one error shape, with Retry-After."""

from __future__ import annotations

import pytest

from api import create_app
from tests.api import helpers
from tests.api.contract import contract_app

pytestmark = pytest.mark.redis

CARD = "keltis-card"
OPEN_GAME = {"game": CARD, "players": [{"name": "ann"}, {"open": True}]}
FULL_GAME = {"game": CARD, "players": [{"name": "ann"}, {"name": "rob", "bot": "greedy"}]}
TOURNAMENT = {"game": CARD, "bots": ["greedy", "random"], "games": 1}


def quota_app(redis_url: str, **config):
    return contract_app(
        redis_url,
        **{
            "QUOTAS_ENABLED": True,
            "QUOTA_GAMES": "1000 per minute",
            "QUOTA_TOURNAMENTS": "1000 per minute",
            "QUOTA_WAITING_GAMES": "off",
            **config,
        },
    )


def own_address() -> dict:
    """A client address of its own (the quotas are per remote address)."""
    return helpers.own_address(7)


def assert_quota_refusal(response) -> None:
    assert response.status_code == 429
    assert response.json["error"]["code"] == "quota_exceeded"
    assert set(response.json["error"]) <= {"code", "message", "rule"}
    assert int(response.headers["Retry-After"]) >= 1


def test_creating_games_over_the_quota_is_refused_per_client(redis_url):
    client = quota_app(redis_url, QUOTA_GAMES="3 per minute").test_client()
    address, other = own_address(), own_address()
    for _ in range(3):
        assert client.post("/v1/games", json=FULL_GAME, environ_base=address).status_code == 201
    refused = client.post("/v1/games", json=FULL_GAME, environ_base=address)
    assert_quota_refusal(refused)
    assert int(refused.headers["Retry-After"]) <= 60
    assert client.post("/v1/games", json=FULL_GAME, environ_base=other).status_code == 201


def test_creating_tournaments_over_the_quota_is_refused(redis_url, drained_queue):
    client = quota_app(redis_url, QUOTA_TOURNAMENTS="1 per minute").test_client()
    address = own_address()
    first = client.post("/v1/tournaments", json=TOURNAMENT, environ_base=address)
    assert first.status_code == 202
    assert_quota_refusal(client.post("/v1/tournaments", json=TOURNAMENT, environ_base=address))


def test_a_client_may_keep_only_so_many_games_waiting_for_seats(redis_url):
    client = quota_app(redis_url, QUOTA_WAITING_GAMES="2").test_client()
    address = own_address()
    waiting = [client.post("/v1/games", json=OPEN_GAME, environ_base=address) for _ in range(2)]
    assert [r.status_code for r in waiting] == [201, 201]
    assert_quota_refusal(client.post("/v1/games", json=OPEN_GAME, environ_base=address))
    # Games that start at once do not wait: they are not held against the client.
    assert client.post("/v1/games", json=FULL_GAME, environ_base=address).status_code == 201
    # A waiting game that starts frees its place.
    game_id = waiting[0].json["id"]
    assert client.post(f"/v1/games/{game_id}/seats/1/join", json={"name": "bo"}).status_code == 200
    assert client.post("/v1/games", json=OPEN_GAME, environ_base=address).status_code == 201


def test_quotas_are_off_in_test_apps_unless_asked_and_off_by_environment(redis_url, monkeypatch):
    assert create_app({"REDIS_URL": redis_url, "TESTING": True}).config["QUOTAS_ENABLED"] is False
    monkeypatch.setenv("KELTIS_QUOTAS", "off")
    assert create_app({"REDIS_URL": redis_url}).config["QUOTAS_ENABLED"] is False
    monkeypatch.delenv("KELTIS_QUOTAS")
    monkeypatch.setenv("KELTIS_QUOTA_WAITING_GAMES", "7")
    app = create_app({"REDIS_URL": redis_url})
    assert app.config["QUOTAS_ENABLED"] is True and app.config["QUOTA_WAITING_GAMES"] == "7"


@pytest.fixture
def drained_queue(redis_client):
    from application.operations.jobs import tournament_queue
    from store.keys import tournaments_running

    yield
    tournament_queue(redis_client).empty()
    redis_client.delete(tournaments_running())
