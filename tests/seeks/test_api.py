"""The seek endpoints over HTTP (the contract-checking client): open, list, cancel, bounds,
bad input, and another account's seek."""

from __future__ import annotations

import uuid

import pytest

from tests.api.test_accounts import sign_up

pytestmark = pytest.mark.redis


def _auth(made: dict) -> dict:
    return {"Authorization": f"Bearer {made['key']}"}


def _name() -> str:
    return "sk" + uuid.uuid4().hex[:12]


def test_an_account_opens_lists_and_cancels_a_seek(client):
    ann = sign_up(client, _name())
    opened = client.post(
        "/v1/seeks",
        json={"game": "keltis-dice", "options": {"board": "advanced"}, "max_games": 2},
        headers=_auth(ann),
    )
    assert opened.status_code == 201
    seek = opened.get_json()
    assert seek["status"] == "open" and seek["rated"] is True and seek["players"] == 2
    assert seek["options"] == {"board": "advanced"} and seek["games"] == []
    assert opened.headers["Location"] == f"/v1/seeks/{seek['id']}"
    listed = client.get("/v1/seeks", headers=_auth(ann)).get_json()["seeks"]
    assert [s["id"] for s in listed] == [seek["id"]]
    cancelled = client.delete(f"/v1/seeks/{seek['id']}", headers=_auth(ann))
    assert cancelled.status_code == 200 and cancelled.get_json()["status"] == "cancelled"
    assert client.get("/v1/seeks", headers=_auth(ann)).get_json()["seeks"] == []
    assert client.delete(f"/v1/seeks/{seek['id']}", headers=_auth(ann)).status_code == 404


def test_another_accounts_seek_is_not_found(client):
    ann, bea = sign_up(client, _name()), sign_up(client, _name())
    seek = client.post("/v1/seeks", json={"game": "keltis-card"}, headers=_auth(ann)).get_json()
    answer = client.delete(f"/v1/seeks/{seek['id']}", headers=_auth(bea))
    assert answer.status_code == 404
    assert answer.get_json()["error"]["code"] == "seek_not_found"
    assert client.get("/v1/seeks", headers=_auth(bea)).get_json()["seeks"] == []


def test_seeks_are_bounded_per_account(client):
    ann = sign_up(client, _name())
    for _ in range(3):
        assert (
            client.post("/v1/seeks", json={"game": "keltis-card"}, headers=_auth(ann)).status_code
            == 201
        )
    refused = client.post("/v1/seeks", json={"game": "keltis-card"}, headers=_auth(ann))
    assert refused.status_code == 429
    assert refused.get_json()["error"]["code"] == "too_many_seeks"
    assert "Retry-After" in refused.headers
    assert len(client.get("/v1/seeks", headers=_auth(ann)).get_json()["seeks"]) == 3


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"game": "chess"}, 422),
        ({"game": "keltis-card", "players": 5}, 422),
        ({"game": "keltis-card", "max_games": 11}, 422),
        ({"game": "keltis-card", "clock": {"move_seconds": 10, "fallback": "nobody"}}, 422),
        ({"game": "keltis-dice", "options": {"board": "moon"}}, 422),
        ({"game": "keltis-card", "colour": "blue"}, 422),
    ],
)
def test_bad_seeks_are_refused_and_nothing_is_written(client, body, status):
    ann = sign_up(client, _name())
    answer = client.post("/v1/seeks", json=body, headers=_auth(ann))
    assert answer.status_code == status, answer.get_json()
    assert client.get("/v1/seeks", headers=_auth(ann)).get_json()["seeks"] == []


def test_seeks_need_an_account_key(client):
    assert client.post("/v1/seeks", json={"game": "keltis-card"}).status_code == 401
    assert client.get("/v1/seeks").status_code == 401
    assert client.delete("/v1/seeks/abc").status_code == 401


def test_a_webhook_bot_whose_webhook_does_not_answer_cannot_seek(client):
    ghost = sign_up(client, _name(), bot=True, webhook="http://127.0.0.1:9/turn")  # closed
    refused = client.post("/v1/seeks", json={"game": "keltis-card"}, headers=_auth(ghost))
    assert refused.status_code == 409
    assert refused.get_json()["error"]["code"] == "webhook_not_answering"
    assert client.get("/v1/seeks", headers=_auth(ghost)).get_json()["seeks"] == []
