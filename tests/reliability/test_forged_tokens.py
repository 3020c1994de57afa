"""R2 under forged tokens: a token is verified before anything depends on hidden state.

The probe: a forged token (`<game>.<seat>.<anything>`) posting a discard of
every card name must not make the server decide, render or append anything for that seat,
and the public index must never show a version the log does not hold.
"""

from __future__ import annotations

import json
import secrets

import pytest

from application.accounts.auth import Actor
from application.games.service import GameService
from domain.card import RULES as CARD_RULES
from domain.card.cards import NAMES
from store import keys
from store.games.eventstore import AppendRequest
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


def test_R2_the_index_never_shows_a_version_the_log_does_not_hold(client, redis_client):
    game_id, seat, token = _game(client)
    hand = client.get(f"/v1/games/{game_id}", headers=bearer(token)).get_json()["view"]["hand"]
    forged = bearer(f"{game_id}.{seat}.{secrets.token_urlsafe(24)}")
    for card in hand:
        move = {"action": "discard", "card": card}
        assert (
            client.post(f"/v1/games/{game_id}/moves", json=move, headers=forged).status_code == 401
        )
        assert _listed_version(client, game_id) == redis_client.llen(keys.log(game_id))
    stale = {"action": "discard", "card": hand[0], "expected_version": 1}
    assert (
        client.post(f"/v1/games/{game_id}/moves", json=stale, headers=bearer(token)).status_code
        == 409
    )
    assert _listed_version(client, game_id) == redis_client.llen(keys.log(game_id))
    moved = {"action": "discard", "card": hand[0]}
    assert (
        client.post(f"/v1/games/{game_id}/moves", json=moved, headers=bearer(token)).status_code
        == 200
    )
    assert _listed_version(client, game_id) == redis_client.llen(keys.log(game_id))


def test_R2_a_refused_append_writes_no_index_entry(redis_client):
    """The index write travels with the append but is made only when the log holds the
    batch it describes (store.games.commit): a conflicting append leaves the index as it was."""
    service = GameService(redis_client)
    record, _, _ = service.create("keltis-card", [{"name": "a"}, {"name": "b"}], {})
    seat = record.to_move
    move = record.rules.legal_moves(record.state, seat)[0]
    batch, after = service.decide(record, Actor(seat), move)
    stale = AppendRequest(record.game_id, record.version - 1, batch)
    assert service.committer.commit(stale, after, record).status == "conflict"
    assert _summary(redis_client, record.game_id)["version"] == record.version
    fresh = AppendRequest(record.game_id, record.version, batch)
    assert service.committer.commit(fresh, after, record).ok
    assert _summary(redis_client, record.game_id)["version"] == after.version


def _listed_version(client, game_id: str) -> int:
    listed = client.get("/v1/games?limit=50").get_json()["games"]
    (summary,) = [g for g in listed if g["id"] == game_id]
    return summary["version"]


def _summary(redis_client, game_id: str) -> dict:
    return json.loads(redis_client.hget(keys.game_summaries(), game_id))
