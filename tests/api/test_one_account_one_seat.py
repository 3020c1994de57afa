"""One account, one seat: two joins of one account took two seats of a rated
game and read both hands. A game seats an account once, at creation and on a join; only an
unrated game created with `"allow_same_account": true` lets it take several. Over the real
Redis, every answer held against openapi.yaml."""

from __future__ import annotations

import pytest

from tests.api.helpers import bearer
from tests.api.test_accounts import error_code, fresh_name, sign_up


def _create(client, game: str, players: list[dict], key: str | None = None, **extra):
    """POST /v1/games; `key`: the creator's account key (an account seats itself only)."""
    headers = bearer(key) if key else {}
    return client.post(
        "/v1/games", json={"game": game, "players": players, **extra}, headers=headers
    )


def _join(client, game_id: str, seat: int, key: str):
    return client.post(f"/v1/games/{game_id}/seats/{seat}/join", json={}, headers=bearer(key))


@pytest.mark.parametrize("rated", [True, False])
def test_a_game_joined_twice_by_one_account_refuses_the_second_join(client, rated):
    key = sign_up(client)["key"]
    made = _create(client, "keltis-card", [{"open": True}, {"open": True}], rated=rated)
    assert made.status_code == 201, made.json
    game_id = made.json["id"]
    assert _join(client, game_id, 0, key).status_code == 200
    again = _join(client, game_id, 1, key)
    assert again.status_code == 409 and error_code(again) == "account_already_seated"
    shown = client.get(f"/v1/games/{game_id}").json
    assert shown["players"][1].get("open") is True and shown["status"] == "waiting"


def test_a_join_is_refused_whatever_the_case_of_the_name(client, toy):
    made = sign_up(client, fresh_name("Mixed"), bot=True)
    players = [{"account": made["name"].upper()}, {"open": True}]
    game = _create(client, toy, players, made["key"]).json
    again = _join(client, game["id"], 1, made["key"])
    assert again.status_code == 409 and error_code(again) == "account_already_seated"


@pytest.mark.parametrize("rated", [True, False])
def test_a_game_created_with_one_account_twice_is_refused(client, rated):
    account = sign_up(client, bot=True)
    players = [{"account": account["name"]}] * 2
    made = _create(client, "keltis-card", players, account["key"], rated=rated)
    assert made.status_code == 422 and error_code(made) == "account_already_seated"


def test_an_unrated_game_may_allow_one_account_several_seats(client):
    made = sign_up(client, bot=True)
    players = [{"account": made["name"]}, {"open": True}, {"open": True}]
    game = _create(client, "keltis-card", players, made["key"], allow_same_account=True)
    assert game.status_code == 201, game.json
    assert _join(client, game.json["id"], 1, made["key"]).status_code == 200
    assert _join(client, game.json["id"], 2, made["key"]).status_code == 200


def test_a_rated_game_cannot_allow_one_account_several_seats(client):
    account = sign_up(client, bot=True)
    players = [{"account": account["name"]}, {"open": True}]
    made = _create(
        client, "keltis-card", players, account["key"], rated=True, allow_same_account=True
    )
    assert made.status_code == 422 and error_code(made) == "same_account_rated"


def test_a_tournament_enters_an_account_once(client):
    name = sign_up(client, bot=True)["name"]
    body = {"game": "keltis-card", "bots": ["greedy", f"@{name}", f"@{name.upper()}"]}
    made = client.post("/v1/tournaments", json={**body, "games": 3, "players_per_game": 2})
    assert made.status_code == 422 and error_code(made) == "account_already_seated"
