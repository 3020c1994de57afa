"""One account cannot fill another's challenge inbox: one open challenge per pair (a new one
replaces it), a cooldown after a decline, and each account's public setting for whom it
takes challenges from (everyone, rated players, nobody). Over the real Redis."""

from __future__ import annotations

import time

import orjson
import pytest

from application.challenges.service import Limits
from ladder.entries import participant_id
from ladder.fold import Rating
from store import keys
from tests.api.helpers import bearer
from tests.api.live_stream import typed
from tests.api.test_accounts import sign_up
from tests.api.test_challenges import at_once, challenge, live

pytestmark = pytest.mark.redis


def incoming(client, key: str) -> list[dict]:
    return client.get("/v1/challenges", headers=bearer(key)).json["challenges"]


@pytest.mark.cluster_too
def test_twenty_challenges_from_one_account_leave_one_in_the_targets_inbox(client):
    ann, bea, cid = sign_up(client), sign_up(client), sign_up(client)
    made = [
        challenge(client, ann["key"], [{"account": bea["name"]}], expires_in_s=3600)
        for _ in range(20)
    ]
    inbox = incoming(client, bea["key"])
    assert [c["id"] for c in inbox] == [made[-1]["id"]]  # the last one replaced the others
    for earlier in made[:-1]:
        read = client.get(f"/v1/challenges/{earlier['id']}", headers=bearer(bea["key"])).json
        assert read["status"] == "cancelled"
    challenge(client, cid["key"], [{"account": bea["name"]}])  # everyone else still gets in
    assert len(incoming(client, bea["key"])) == 2


@pytest.mark.cluster_too
def test_a_decline_is_not_answered_by_the_same_challenger_at_once(app, client):
    app.config["CHALLENGE_LIMITS"] = Limits(cooldown_s=2)
    ann, bea, cid = sign_up(client), sign_up(client), sign_up(client)
    made = challenge(client, ann["key"], [{"account": bea["name"]}])
    declined = client.post(
        f"/v1/challenges/{made['id']}/decline", json={"reason": "later"}, headers=bearer(bea["key"])
    )
    assert declined.status_code == 200, declined.json
    body = {"game": "keltis-card", "opponents": [{"account": bea["name"]}]}
    again = client.post("/v1/challenges", json=body, headers=bearer(ann["key"]))
    assert again.status_code == 429 and again.json["error"]["code"] == "challenge_cooldown"
    assert 1 <= int(again.headers["Retry-After"]) <= 2
    challenge(client, cid["key"], [{"account": bea["name"]}])  # others are not held back
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:  # the cooldown ends by itself
        answer = client.post("/v1/challenges", json=body, headers=bearer(ann["key"]))
        if answer.status_code == 201:
            break
        assert answer.json["error"]["code"] == "challenge_cooldown"
        time.sleep(0.1)
    else:
        raise AssertionError("the cooldown never ended")


def _rate(redis_client, name: str) -> None:
    """Give an account a rating on the keltis-card ladder."""
    rating = Rating(name, False, 25.0, 8.0, 1)
    field = participant_id(name, bot=False)
    redis_client.hset(keys.ladder_ratings("keltis-card"), field, orjson.dumps(rating.to_dict()))


def test_an_account_takes_challenges_from_everyone_rated_players_or_nobody(client, redis_client):
    ann, bea, rated = sign_up(client), sign_up(client), sign_up(client)
    _rate(redis_client, rated["name"])
    body = {"game": "keltis-card", "opponents": [{"account": bea["name"]}]}
    profile = client.get(f"/v1/accounts/{bea['name']}").json
    assert profile["accepts_challenges"] == "everyone"
    for setting, ann_status, rated_status in (("nobody", 403, 403), ("rated", 403, 201)):
        changed = client.patch(
            "/v1/me", json={"accepts_challenges": setting}, headers=bearer(bea["key"])
        )
        assert changed.status_code == 200 and changed.json["accepts_challenges"] == setting
        assert client.get(f"/v1/accounts/{bea['name']}").json["accepts_challenges"] == setting
        refused = client.post("/v1/challenges", json=body, headers=bearer(ann["key"]))
        assert refused.status_code == ann_status
        assert refused.json["error"]["code"] == "challenges_refused"
        answer = client.post("/v1/challenges", json=body, headers=bearer(rated["key"]))
        assert answer.status_code == rated_status, answer.json
    client.patch("/v1/me", json={"accepts_challenges": "everyone"}, headers=bearer(bea["key"]))
    assert client.post("/v1/challenges", json=body, headers=bearer(ann["key"])).status_code == 201
    empty = client.patch("/v1/me", json={}, headers=bearer(bea["key"]))
    assert empty.status_code == 422
    wrong = {"accepts_challenges": "friends"}
    assert client.patch("/v1/me", json=wrong, headers=bearer(ann["key"])).status_code == 422


@pytest.mark.cluster_too
def test_a_replaced_challenge_is_heard_cancelled_and_frees_its_place(app, client):
    app.config["CHALLENGE_LIMITS"] = Limits(outgoing=2)
    ann, bea, cid = sign_up(client), sign_up(client), sign_up(client)
    first = challenge(client, ann["key"], [{"account": bea["name"]}])
    challenge(client, ann["key"], [{"account": cid["name"]}])  # ann's outgoing are full
    with live(app, bea["key"]) as bea_stream:
        second = challenge(client, ann["key"], [{"account": bea["name"]}], expires_in_s=60)
        gone = bea_stream.first("challenge_cancelled")["challenge"]
        assert gone["id"] == first["id"] and gone["status"] == "cancelled"
        bea_stream.until(
            lambda lines: second["id"] in [c["challenge"]["id"] for c in typed(lines, "challenge")]
        )
    assert [c["id"] for c in incoming(client, bea["key"])] == [second["id"]]
    late = client.post(f"/v1/challenges/{first['id']}/accept", headers=bearer(bea["key"]))
    assert late.status_code == 409 and late.json["error"]["code"] == "challenge_closed"
    accepted = client.post(f"/v1/challenges/{second['id']}/accept", headers=bearer(bea["key"]))
    assert accepted.status_code == 200 and accepted.json["status"] == "accepted"
    third = challenge(client, ann["key"], [{"account": bea["name"]}])  # the pair is free
    assert [c["id"] for c in incoming(client, bea["key"])] == [third["id"]]


@pytest.mark.cluster_too
def test_two_challenges_at_once_from_one_account_to_another_leave_one_open(app, client):
    for _ in range(4):
        ann, bea = sign_up(client), sign_up(client)
        body = {"game": "keltis-card", "opponents": [{"account": bea["name"]}]}

        def post(body=body, key=ann["key"]):
            return app.test_client().post("/v1/challenges", json=body, headers=bearer(key))

        answers = at_once([post, post, post])
        assert [a.status_code for a in answers] == [201, 201, 201], [a.json for a in answers]
        made = [a.json["id"] for a in answers]
        statuses = [
            client.get(f"/v1/challenges/{m}", headers=bearer(ann["key"])).json["status"]
            for m in made
        ]
        assert sorted(statuses) == ["cancelled", "cancelled", "open"], statuses
        assert [c["id"] for c in incoming(client, bea["key"])] == [
            m for m, status in zip(made, statuses, strict=True) if status == "open"
        ]
