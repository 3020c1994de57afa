"""Answers that depend on the seat asking are never stored by a shared cache."""

from __future__ import annotations

import pytest

CARD_GAME = {"game": "keltis-card", "players": [{"name": "ann"}, {"name": "bea"}]}


@pytest.fixture
def seat(client):
    created = client.post("/v1/games", json=CARD_GAME)
    assert created.headers["Cache-Control"] == "no-store"  # it carries the tokens
    body = created.get_json()
    return body["id"], {"Authorization": f"Bearer {body['seats'][0]['token']}"}


@pytest.mark.parametrize("path", ["", "/moves", "/events"])
def test_a_seats_answers_are_private_and_not_stored(client, seat, path):
    game_id, auth = seat
    response = client.get(f"/v1/games/{game_id}{path}", headers=auth)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "private, no-store"
    assert "Authorization" in response.headers["Vary"]


def test_a_spectators_game_view_varies_by_authorization(client, seat):
    game_id, _ = seat
    response = client.get(f"/v1/games/{game_id}")
    assert "Authorization" in response.headers["Vary"]
    assert "no-store" not in response.headers.get("Cache-Control", "")


def test_a_refused_token_is_not_stored_either(client, seat):
    game_id, _ = seat
    forged = {"Authorization": f"Bearer {game_id}.0.forged"}
    response = client.get(f"/v1/games/{game_id}/moves", headers=forged)
    assert response.status_code in (401, 403)
    assert response.headers["Cache-Control"] == "private, no-store"
