"""R2 under forged tokens: a token is verified before anything depends on hidden state.

The probe of issue 10: a forged token (`<game>.<seat>.<anything>`) posting a discard of
every card name must not make the server decide, render or append anything for that seat,
and the public index must never show a version the log does not hold.
"""

from __future__ import annotations

import secrets

import pytest

from domain.card import RULES as CARD_RULES
from domain.card.cards import NAMES
from store import index, keys
from tests.reliability.test_tokens import CARD, bearer

pytestmark = pytest.mark.redis


@pytest.fixture
def rules_calls(monkeypatch):
    """Every call of the card rules that depends on one seat's hidden state: (name, seat)."""
    calls: list[tuple[str, int | None]] = []
    for name, seat_at in (("decide", 1), ("legal_moves", 1), ("view", 1)):
        original = getattr(CARD_RULES, name)

        def spy(*args, _original=original, _name=name, _at=seat_at):
            calls.append((_name, args[_at]))
            return _original(*args)

        monkeypatch.setattr(CARD_RULES, name, spy)
    return calls


def _game(client) -> tuple[str, int, str]:
    created = client.post("/v1/games", json=CARD).get_json()
    seat = created["to_move"]
    token = next(s["token"] for s in created["seats"] if s["seat"] == seat)
    return created["id"], seat, token


def test_R2_no_rules_call_for_a_seat_whose_token_was_not_verified(client, rules_calls):
    game_id, seat, token = _game(client)
    client.get(f"/v1/games/{game_id}", headers=bearer(token))  # this process caches the game
    forged = bearer(f"{game_id}.{seat}.{secrets.token_urlsafe(24)}")
    rules_calls.clear()
    statuses = set()
    for name in NAMES:
        move = {"action": "discard", "card": name}
        statuses.add(
            client.post(f"/v1/games/{game_id}/moves", json=move, headers=forged).status_code
        )
    statuses.add(client.get(f"/v1/games/{game_id}/moves", headers=forged).status_code)
    statuses.add(client.get(f"/v1/games/{game_id}", headers=forged).status_code)
    statuses.add(client.get(f"/v1/games/{game_id}/events", headers=forged).status_code)
    assert statuses == {401}
    assert rules_calls == []


def test_R2_forged_legal_and_illegal_moves_get_identical_answers(client):
    game_id, seat, token = _game(client)
    hand = client.get(f"/v1/games/{game_id}", headers=bearer(token)).get_json()["view"]["hand"]
    forged = bearer(f"{game_id}.{seat}.{secrets.token_urlsafe(24)}")
    outside = next(name for name in NAMES if name not in hand)
    answers = [
        client.post(
            f"/v1/games/{game_id}/moves", json={"action": "discard", "card": card}, headers=forged
        )
        for card in (hand[0], outside)
    ]
    assert [a.status_code for a in answers] == [401, 401]
    assert answers[0].get_data() == answers[1].get_data()


def test_R2_the_index_never_shows_a_version_the_log_does_not_hold(
    client, redis_client, monkeypatch
):
    """Every index write happens after the append it describes (checked at the write)."""
    written: list[tuple[int, int]] = []
    original = index.update

    def checked(pipe, record, before=None):
        written.append((record.version, redis_client.llen(keys.log(record.game_id))))
        return original(pipe, record, before)

    monkeypatch.setattr(index, "update", checked)
    game_id, seat, token = _game(client)
    hand = client.get(f"/v1/games/{game_id}", headers=bearer(token)).get_json()["view"]["hand"]
    forged = bearer(f"{game_id}.{seat}.{secrets.token_urlsafe(24)}")
    for card in hand:
        move = {"action": "discard", "card": card}
        assert (
            client.post(f"/v1/games/{game_id}/moves", json=move, headers=forged).status_code == 401
        )
    stale = {"action": "discard", "card": hand[0], "expected_version": 1}
    assert (
        client.post(f"/v1/games/{game_id}/moves", json=stale, headers=bearer(token)).status_code
        == 409
    )
    moved = {"action": "discard", "card": hand[0]}
    assert (
        client.post(f"/v1/games/{game_id}/moves", json=moved, headers=bearer(token)).status_code
        == 200
    )
    assert written, "the index was written"
    assert all(version <= length for version, length in written), written
    listed = client.get("/v1/games?limit=50").get_json()["games"]
    (summary,) = [g for g in listed if g["id"] == game_id]
    assert summary["version"] == redis_client.llen(keys.log(game_id))
