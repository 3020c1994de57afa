"""`X-Keltis-Seat` is checked alike by every endpoint of a game
(application.accounts.auth.pick_seat):
a seat the caller's credential does not hold is 403 `seat_not_held`, whatever the endpoint
and the credential (an account key, a game token, none), and never turned into another seat.
A resignation naming seat 1 from an account holding seat 0 resigned seat 0 before (R2: a
caller acts and sees as its own seats only)."""

from __future__ import annotations

import pytest

from tests.api.helpers import bearer
from tests.api.test_accounts import error_code, sign_up

SEAT = "X-Keltis-Seat"


@pytest.fixture
def game(client):
    """A card game: seat 0 the account's (its key), seat 1 a name's (its game token)."""
    ann = sign_up(client)
    players = [{"account": ann["name"]}, {"name": "bea"}]
    made = client.post(
        "/v1/games", json={"game": "keltis-card", "players": players}, headers=bearer(ann["key"])
    )
    assert made.status_code == 201, made.json
    token = next(seat["token"] for seat in made.json["seats"] if seat["seat"] == 1)
    return made.json["id"], ann["key"], token


def calls(client, game_id: str, headers: dict) -> dict[str, object]:
    """Every endpoint that acts or reads as a seat, called with `headers`."""
    version = client.get(f"/v1/games/{game_id}").json["version"]
    base = f"/v1/games/{game_id}"
    return {
        "state": client.get(base, headers=headers),
        "time travel": client.get(f"{base}?at=1", headers=headers),
        "moves": client.get(f"{base}/moves", headers=headers),
        "moves at a version": client.get(f"{base}/moves?version={version}", headers=headers),
        "events": client.get(f"{base}/events", headers=headers),
        "stream": client.get(f"{base}/stream", headers=headers),
        "move": client.post(f"{base}/moves", json={"action": "pass"}, headers=headers),
        "resign": client.post(f"{base}/resign", headers=headers),
    }


def assert_all_refused(answers: dict) -> None:
    wrong = {
        name: answer.status_code
        for name, answer in answers.items()
        if answer.status_code != 403 or error_code(answer) != "seat_not_held"
    }
    assert not wrong, wrong


def test_an_account_naming_a_seat_it_does_not_hold_is_refused_everywhere(client, game):
    game_id, key, _ = game
    assert_all_refused(calls(client, game_id, {**bearer(key), SEAT: "1"}))
    shown = client.get(f"/v1/games/{game_id}").json
    assert shown["status"] != "finished" and not any(p["forfeited"] for p in shown["players"])


def test_a_game_token_naming_another_seat_is_refused_everywhere(client, game):
    game_id, _, token = game
    assert_all_refused(calls(client, game_id, {**bearer(token), SEAT: "0"}))
    shown = client.get(f"/v1/games/{game_id}").json
    assert not any(p["forfeited"] for p in shown["players"])


def test_a_spectator_naming_a_seat_is_refused(client, game):
    game_id, _, _ = game
    answer = client.get(f"/v1/games/{game_id}", headers={SEAT: "0"})
    assert answer.status_code == 403 and error_code(answer) == "seat_not_held"


@pytest.mark.parametrize("credential", ["key", "token"])
def test_naming_ones_own_seat_resigns_it(client, game, credential):
    game_id, key, token = game
    held = {"key": (key, 0), "token": (token, 1)}
    secret, seat = held[credential]
    headers = {**bearer(secret), SEAT: str(seat)}
    assert client.get(f"/v1/games/{game_id}", headers=headers).json["seat"] == seat
    resigned = client.post(f"/v1/games/{game_id}/resign", headers=headers)
    assert resigned.status_code == 200, resigned.json
    assert [p["forfeited"] for p in resigned.json["players"]] == [seat == 0, seat == 1]
