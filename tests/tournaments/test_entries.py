"""An account plays in a tournament only with its own consent: the organiser's account
entries are invited, and each enters itself with its own key (POST .../entries); no game
starts while an invitation is open, so no one is entered, seated or rated unasked. The
caller's own account (its key on the creation) is entered at once; built-in bots are
entered by the organiser. Every answer in the one error shape, checked against the contract."""

from __future__ import annotations

import pytest

from tests.api.helpers import bearer
from tests.api.test_accounts import error_code, sign_up
from tournaments import seeds

pytestmark = pytest.mark.redis


def open_body(*accounts: str) -> dict:
    entries = ["greedy", *({"account": name} for name in accounts)]
    return {"game": "keltis-card", "bots": entries, "games": 2, "clock": {"move_seconds": 60}}


def first_game(client, tid: str):
    return client.get(f"/v1/games/{seeds.game_id(tid, 0)}")


def test_an_organiser_invites_accounts_and_no_game_starts_until_each_entered_itself(client):
    first, second = sign_up(client, bot=True), sign_up(client, bot=True)
    stranger = sign_up(client, bot=True)
    made = client.post("/v1/tournaments", json=open_body(first["name"], second["name"]))
    assert made.status_code == 202, made.json
    tid = made.json["id"]
    shown = client.get(f"/v1/tournaments/{tid}").json
    assert shown["awaiting_entries"] == sorted([first["name"], second["name"]])
    assert shown["progress"]["running"] == 0 and first_game(client, tid).status_code == 404
    url = f"/v1/tournaments/{tid}/entries"
    assert client.post(url).status_code == 401
    refused = client.post(url, headers=bearer(stranger["key"]))  # not among its entries
    assert refused.status_code == 403 and error_code(refused) == "not_invited"
    entered = client.post(url, headers=bearer(first["key"]))
    assert entered.status_code == 200 and entered.json["awaiting_entries"] == [second["name"]]
    again = client.post(url, headers=bearer(first["key"]))  # entering twice changes nothing
    assert again.status_code == 200 and again.json["awaiting_entries"] == [second["name"]]
    assert first_game(client, tid).status_code == 404  # one invitation still open
    last = client.post(url, headers=bearer(second["key"]))
    assert last.status_code == 200 and last.json["awaiting_entries"] == []
    game = first_game(client, tid)
    assert game.status_code == 200 and game.json["rated"]
    seated = {p.get("account") for p in game.json["players"]}
    assert seated <= {None, first["name"], second["name"]}
    cancel = client.post(f"/v1/tournaments/{tid}/cancel", headers=bearer(made.json["token"]))
    assert cancel.status_code == 200
    over = client.post(url, headers=bearer(first["key"]))
    assert over.status_code == 409 and error_code(over) == "tournament_over"


def test_the_callers_own_account_is_entered_at_once_and_its_games_start(client):
    own = sign_up(client, bot=True)
    made = client.post("/v1/tournaments", json=open_body(own["name"]), headers=bearer(own["key"]))
    assert made.status_code == 202, made.json
    tid = made.json["id"]
    assert client.get(f"/v1/tournaments/{tid}").json["awaiting_entries"] == []
    assert first_game(client, tid).status_code == 200
    client.post(f"/v1/tournaments/{tid}/cancel", headers=bearer(made.json["token"]))


def test_a_tournament_of_built_in_bots_awaits_no_one(client):
    body = {"game": "keltis-card", "bots": ["greedy", "random"], "games": 2}
    made = client.post("/v1/tournaments", json=body)
    assert made.status_code == 202, made.json
    assert client.get(f"/v1/tournaments/{made.json['id']}").json["awaiting_entries"] == []
