"""The creator of a game cancels it (issue 23 item 7): a game of bots only (no person's
token) too, with the create answer's `creator_token` or the creator's account key. The game
ends `cancelled` (unrated, no result), its queued bot turns do nothing; anyone else is
refused (401 without a credential, 403 with another one) in the one error shape, and the
refusal tells nothing about the game."""

from __future__ import annotations

import secrets

import pytest

from application import bots, jobs
from store import keys
from store.index import ladder_due
from tests.api.helpers import bearer

pytestmark = pytest.mark.redis

CARD = "keltis-card"
FOUR_SEARCHERS = {
    "game": CARD,
    "players": [{"name": f"m{seat}", "bot": "mcts:5000"} for seat in range(4)],
}


def sign_up(client) -> dict:
    made = client.post("/v1/accounts", json={"name": f"creator_{secrets.token_hex(5)}"})
    assert made.status_code == 201, made.json
    return made.json


def assert_refused(response, status: int, code: str) -> None:
    assert response.status_code == status, response.json
    assert response.json["error"]["code"] == code
    assert set(response.json["error"]) == {"code", "message", "rule"}


def test_a_game_of_four_mcts_5000_bots_is_cancelled_by_its_creator(app, client, redis_client):
    created = client.post("/v1/games", json=FOUR_SEARCHERS)
    assert created.status_code == 201
    game_id, version = created.json["id"], created.json["version"]
    assert created.json["seats"] == []  # no person: before, nobody could stop it
    job_id = keys.bot_job_id(game_id, version)
    assert jobs.fetch_job(redis_client, job_id) is not None  # its first search is queued
    try:
        cancelled = client.post(
            f"/v1/games/{game_id}/cancel", headers=bearer(created.json["creator_token"])
        )
        assert cancelled.status_code == 200
        assert cancelled.json["status"] == "cancelled"
        assert cancelled.json["result"]["winners"] == []  # no result counts
        assert cancelled.json["result"]["scores"] is None
        service = app.extensions["keltis"]
        assert bots.play_bot_turns(service, game_id, version) == 0  # the queued job: nothing
        record = service.load(game_id)[0]
        assert record.version == version + 1 and record.cancelled
        events = client.get(f"/v1/games/{game_id}/events").json["events"]
        assert events[-1]["event"] == {"type": "game_ended_early", "reason": "cancelled"}
    finally:
        jobs.delete_job(redis_client, job_id)
    again = client.post(f"/v1/games/{game_id}/cancel", headers=bear(created))
    assert_refused(again, 409, "game_over")


def bear(created) -> dict:
    return bearer(created.json["creator_token"])


def test_only_the_creator_may_cancel_and_a_refusal_tells_nothing(app, client):
    players = [{"name": "ann"}, {"name": "bob"}]
    created = client.post("/v1/games", json={"game": CARD, "players": players})
    other = client.post("/v1/games", json={"game": CARD, "players": players})
    url = f"/v1/games/{created.json['id']}/cancel"
    stranger = sign_up(client)
    assert_refused(client.post(url), 401, "unauthenticated")
    seat_token = created.json["seats"][0]["token"]
    for token in (seat_token, other.json["creator_token"], stranger["key"], "kc_" + "x" * 32):
        assert_refused(client.post(url, headers=bearer(token)), 403, "not_creator")
    assert_refused(client.post(url, headers=bearer("kk_" + "A" * 43)), 401, "unauthenticated")
    missing = client.post("/v1/games/NoSuchGame1234567890/cancel", headers=bear(created))
    assert_refused(missing, 404, "game_not_found")
    assert client.get(f"/v1/games/{created.json['id']}").json["status"] == "active"


def test_the_creators_account_key_cancels_a_rated_game_and_it_goes_unrated(app, client):
    creator = sign_up(client)
    body = {
        "game": CARD,
        "players": [{"name": "rob", "bot": "greedy"}, {"name": "rex", "bot": "random"}],
        "rated": True,
    }
    created = client.post("/v1/games", json=body, headers=bearer(creator["key"]))
    assert created.status_code == 201
    game_id = created.json["id"]
    cancelled = client.post(f"/v1/games/{game_id}/cancel", headers=bearer(creator["key"]))
    assert cancelled.status_code == 200 and cancelled.json["status"] == "cancelled"
    record = app.extensions["keltis"].load(game_id)[0]
    assert record.rated and record.cancelled and not ladder_due(record)
    queued = keys.bot_job_id(game_id, created.json["version"])
    jobs.delete_job(app.extensions["keltis_queue"], queued)


def test_a_game_waiting_for_seats_is_cancelled_and_can_no_longer_be_joined(client):
    body = {"game": CARD, "players": [{"name": "ann"}, {"open": True}]}
    created = client.post("/v1/games", json=body)
    game_id = created.json["id"]
    cancelled = client.post(f"/v1/games/{game_id}/cancel", headers=bear(created))
    assert cancelled.status_code == 200 and cancelled.json["status"] == "cancelled"
    joined = client.post(f"/v1/games/{game_id}/seats/1/join", json={"name": "bob"})
    assert_refused(joined, 409, "game_over")
