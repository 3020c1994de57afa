"""Time travel: GET /v1/games/{id}?at=N shows the game as the caller could see it at N (no
later or hidden card), everything once the game is over; events?after=A&before=B bounds a
range."""

from __future__ import annotations

import pytest

from application.games.service import GameService
from tests.store import toy_game


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def played(client, redis_client, monkeypatch):
    """A toy game played move by move over HTTP; what each viewer saw at each version."""
    toy = toy_game.register(monkeypatch)
    service = GameService(redis_client)
    record, tokens, _ = service.create(toy, [{"name": "a"}, {"name": "b"}], {})
    game_id = record.game_id
    seen = {}  # (viewer, version) -> the body GET answered then
    while True:
        for viewer in (None, 0, 1):
            headers = bearer(tokens[viewer]) if viewer is not None else {}
            body = client.get(f"/v1/games/{game_id}", headers=headers).json
            seen[(viewer, body["version"])] = body
        record, _, _ = service.load(game_id)
        if record.finished or len({v for _, v in seen}) >= 4:
            break
        move = record.rules.legal_moves(record.state, record.to_move)[0]
        client.post(f"/v1/games/{game_id}/moves", json=move, headers=bearer(tokens[record.to_move]))
    return game_id, tokens, seen, service


def test_a_seat_at_n_sees_exactly_what_it_could_see_at_n(client, played):
    game_id, tokens, seen, _ = played
    for (viewer, version), then in seen.items():
        headers = bearer(tokens[viewer]) if viewer is not None else {}
        now = client.get(f"/v1/games/{game_id}?at={version}", headers=headers)
        assert now.status_code == 200
        assert now.json == then, (viewer, version)


def test_a_spectator_at_n_sees_no_hand(client, played):
    game_id, _, seen, _ = played
    for _, version in seen:
        view = client.get(f"/v1/games/{game_id}?at={version}").json["view"]
        assert view["hand"] is None and "hands" not in view and "deck" not in view


def test_a_finished_game_at_n_shows_everything(client, played):
    game_id, tokens, seen, service = played
    record, _, _ = service.load(game_id)
    while not record.finished:
        move = record.rules.legal_moves(record.state, record.to_move)[0]
        service.play(game_id, tokens[record.to_move], move, lambda *a: {})
        record, _, _ = service.load(game_id)
    version = max(v for _, v in seen)
    view = client.get(f"/v1/games/{game_id}?at={version}").json["view"]
    assert view["hands"] == [seen[(0, version)]["view"]["hand"], seen[(1, version)]["view"]["hand"]]


def test_a_version_past_the_newest_is_not_found(client, played):
    game_id, _, seen, _ = played
    newest = max(v for _, v in seen)
    response = client.get(f"/v1/games/{game_id}?at={newest + 1}")
    assert response.status_code == 404
    assert response.json["error"]["code"] == "version_not_found"


def test_a_version_inside_the_opening_deal_stands_for_the_version_before_it(client, played):
    game_id, _, _, _ = played
    inside = client.get(f"/v1/games/{game_id}?at=3").json
    assert inside["version"] == 1 and inside["view"] is None


def test_events_after_and_before_bound_a_range(client, played):
    game_id, _, _, _ = played
    events = client.get(f"/v1/games/{game_id}/events?after=2&before=6").json["events"]
    assert [e["version"] for e in events] == [3, 4, 5]
    assert client.get(f"/v1/games/{game_id}/events?after=5&before=6").json["events"] == []
    everything = client.get(f"/v1/games/{game_id}/events?after=2").json["events"]
    assert everything[:3] == events
