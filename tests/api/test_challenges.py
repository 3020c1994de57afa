"""Challenges over the real Redis: open, hear on /v1/me/events, accept
(the game starts for both), decline with a reason, cancel, expire, the limits, the race of
accept against cancel, 3-player challenges and challenges to built-in bots. Every answer is
held against openapi.yaml."""

from __future__ import annotations

import json
import threading

import pytest

from application.challenges.events import ChallengeWatch
from application.challenges.service import Challenges, Limits
from application.games.service import GameService
from store import keys
from store.challenges.records import ChallengeStore
from tests.api.helpers import bearer
from tests.api.live_stream import LiveStream, typed
from tests.api.test_accounts import sign_up

KEEPALIVE_S = 0.2


@pytest.fixture
def app(app):
    app.config.update(STREAM_KEEPALIVE_S=KEEPALIVE_S, STREAM_MAX_S=2.0, STREAMS_PER_ACCOUNT=4)
    return app


def lines_of(response) -> list[dict]:
    assert response.status_code == 200, response.data
    return [json.loads(line) for line in response.data.decode().split("\n") if line]


def at_once(calls: list) -> list:
    """Run the calls in threads released together; their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(n: int) -> None:
        barrier.wait()
        results[n] = calls[n]()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def challenge(client, key: str, opponents: list[dict], **body) -> dict:
    body = {"game": "keltis-card", "opponents": opponents, **body}
    response = client.post("/v1/challenges", json=body, headers=bearer(key))
    assert response.status_code == 201, response.json
    return response.json


def live(app, key: str) -> LiveStream:
    """The account's event stream, opened (its opening look done) and read as it comes; it
    may stay open long, the test closes it once the lines it waits for have come."""
    app.config.update(STREAM_MAX_S=120.0)
    return LiveStream(app, "/v1/me/events", bearer(key))


@pytest.mark.cluster_too
def test_a_challenge_is_heard_accepted_and_starts_the_game_on_both_streams(app, client):
    ann, bea = sign_up(client), sign_up(client, bot=True)
    with live(app, ann["key"]) as ann_stream, live(app, bea["key"]) as bea_stream:
        _heard_accepted_and_started(client, ann, bea, ann_stream, bea_stream)


def _heard_accepted_and_started(client, ann, bea, ann_stream, bea_stream) -> None:
    clock = {"move_seconds": 60}
    made = challenge(
        client, ann["key"], [{"account": bea["name"]}], seat_order="given", clock=clock
    )
    assert made["status"] == "open" and made["players"] == 2 and made["game_id"] is None
    assert made["clock"]["move_seconds"] == 60
    incoming = client.get("/v1/challenges?direction=incoming", headers=bearer(bea["key"]))
    assert [c["id"] for c in incoming.json["challenges"]] == [made["id"]]
    outgoing = client.get("/v1/challenges?direction=outgoing", headers=bearer(ann["key"]))
    assert [c["id"] for c in outgoing.json["challenges"]] == [made["id"]]
    assert bea_stream.first("challenge")["challenge"]["id"] == made["id"]
    accepted = client.post(f"/v1/challenges/{made['id']}/accept", headers=bearer(bea["key"]))
    assert accepted.status_code == 200, accepted.json
    assert accepted.json["status"] == "accepted" and accepted.json["accepted_by"] == [bea["name"]]
    game_id = accepted.json["game_id"]
    game = client.get(f"/v1/games/{game_id}").json
    assert [p["name"] for p in game["players"]] == [ann["name"], bea["name"]]  # given order
    assert game["clock"]["move_seconds"] == 60 and game["rated"] is False
    started = {"type": "game_started", "game": game_id}
    for seen in (ann_stream, bea_stream):
        seen.until(lambda lines: started in lines and typed(lines, "challenge_accepted"))
        assert typed(seen.lines, "challenge_accepted")[0]["challenge"]["game_id"] == game_id
    assert not typed(ann_stream.lines, "challenge")  # the challenge line goes to the challenged
    again = client.post(f"/v1/challenges/{made['id']}/accept", headers=bearer(bea["key"]))
    assert again.status_code == 409 and again.json["error"]["code"] == "challenge_closed"


def test_a_reconnecting_stream_opens_with_the_open_incoming_challenges(client):
    ann, bea = sign_up(client), sign_up(client)
    made = challenge(client, ann["key"], [{"account": bea["name"]}])
    lines = lines_of(client.get("/v1/me/events", headers=bearer(bea["key"])))
    assert lines[0] == {"type": "challenge", "challenge": made}


def test_a_decline_with_its_reason_is_heard_by_the_challenger(app, client):
    ann, bea = sign_up(client), sign_up(client)
    made = challenge(client, ann["key"], [{"account": bea["name"]}])
    with live(app, ann["key"]) as ann_stream:
        declined = client.post(
            f"/v1/challenges/{made['id']}/decline",
            json={"reason": "too_fast"},
            headers=bearer(bea["key"]),
        )
        assert declined.status_code == 200 and declined.json["status"] == "declined"
        line = ann_stream.first("challenge_declined")
    assert line["challenge"]["decline_reason"] == "too_fast"
    bad = client.post(
        f"/v1/challenges/{made['id']}/decline", json={"reason": "rude"}, headers=bearer(bea["key"])
    )
    assert bad.status_code == 422


def test_only_the_challenger_cancels_and_the_challenged_hears_it(app, client):
    ann, bea, eve = sign_up(client), sign_up(client), sign_up(client)
    made = challenge(client, ann["key"], [{"account": bea["name"]}])
    hidden = client.get(f"/v1/challenges/{made['id']}", headers=bearer(eve["key"]))
    assert hidden.status_code == 404  # neither challenger nor challenged
    refused = client.post(f"/v1/challenges/{made['id']}/cancel", headers=bearer(bea["key"]))
    assert refused.status_code == 403
    with live(app, bea["key"]) as bea_stream:
        cancelled = client.post(f"/v1/challenges/{made['id']}/cancel", headers=bearer(ann["key"]))
        assert cancelled.status_code == 200 and cancelled.json["status"] == "cancelled"
        assert bea_stream.first("challenge_cancelled")["challenge"]["id"] == made["id"]
    late = client.post(f"/v1/challenges/{made['id']}/accept", headers=bearer(bea["key"]))
    assert late.status_code == 409


def test_self_challenge_and_an_account_twice_are_refused(client):
    ann, bea = sign_up(client), sign_up(client)
    body = {"game": "keltis-card", "opponents": [{"account": ann["name"].upper()}]}
    refused = client.post("/v1/challenges", json=body, headers=bearer(ann["key"]))
    assert refused.status_code == 422 and refused.json["error"]["code"] == "invalid_challenge"
    body["opponents"] = [{"account": bea["name"]}, {"account": bea["name"].lower()}]
    twice = client.post("/v1/challenges", json=body, headers=bearer(ann["key"]))
    assert twice.status_code == 422 and twice.json["error"]["code"] == "invalid_challenge"
    anonymous = client.post("/v1/challenges", json=body)
    assert anonymous.status_code == 401


def test_open_challenges_are_limited_per_challenger_and_per_target(app, client):
    app.config["CHALLENGE_LIMITS"] = Limits(outgoing=2, incoming=3)
    ann, bea, cid, dee, eve = (sign_up(client) for _ in range(5))
    for target in (bea, cid):
        challenge(client, ann["key"], [{"account": target["name"]}])
    body = {"game": "keltis-card", "opponents": [{"account": dee["name"]}]}
    full = client.post("/v1/challenges", json=body, headers=bearer(ann["key"]))
    assert full.status_code == 429 and full.json["error"]["code"] == "too_many_challenges"
    assert full.headers["Retry-After"]
    for sender in (cid, dee):
        challenge(client, sender["key"], [{"account": bea["name"]}])  # bea's third incoming
    to_bea = {"game": "keltis-card", "opponents": [{"account": bea["name"]}]}
    flood = client.post("/v1/challenges", json=to_bea, headers=bearer(eve["key"]))
    assert flood.status_code == 429  # bea holds as many incoming as it may
    first = client.get("/v1/challenges?direction=outgoing", headers=bearer(ann["key"]))
    client.post(
        f"/v1/challenges/{first.json['challenges'][0]['id']}/cancel", headers=bearer(ann["key"])
    )
    assert client.post("/v1/challenges", json=body, headers=bearer(ann["key"])).status_code == 201


def test_an_expired_challenge_is_expired_on_read_and_can_no_longer_be_accepted(
    client, redis_client
):
    ann, bea = sign_up(client), sign_up(client)
    made = challenge(client, ann["key"], [{"account": bea["name"]}], expires_in_s=10)
    redis_client.hset(keys.challenge(made["id"]), "expires_at", made["created_at"])
    read = client.get(f"/v1/challenges/{made['id']}", headers=bearer(bea["key"]))
    assert read.json["status"] == "expired"
    late = client.post(f"/v1/challenges/{made['id']}/accept", headers=bearer(bea["key"]))
    assert late.status_code == 409


@pytest.mark.cluster_too
def test_accept_racing_cancel_has_exactly_one_winner(app, client):
    ann, bea = sign_up(client), sign_up(client)
    for _ in range(5):
        made = challenge(client, ann["key"], [{"account": bea["name"]}])
        path = f"/v1/challenges/{made['id']}"
        accept, cancel = (
            lambda p=path: app.test_client().post(f"{p}/accept", headers=bearer(bea["key"])),
            lambda p=path: app.test_client().post(f"{p}/cancel", headers=bearer(ann["key"])),
        )
        accepted, cancelled = at_once([accept, cancel])
        answers = {"a": accepted.status_code, "c": cancelled.status_code}
        assert sorted(answers.values()) == [200, 409]
        final = client.get(f"/v1/challenges/{made['id']}", headers=bearer(ann["key"])).json
        assert final["status"] == ("accepted" if answers["a"] == 200 else "cancelled")
        assert (final["game_id"] is not None) == (answers["a"] == 200)


@pytest.mark.cluster_too
def test_accept_cancel_and_expiry_scripts_race_with_one_winner(redis_client):
    """The store's scripts, hammered from threads on one challenge: one change wins."""
    service = GameService(redis_client)
    challenges = Challenges(service)
    store = ChallengeStore(redis_client)
    spec = {"challenger": "x_race", "opponents": [{"account": "y_race"}], "game": "keltis-card",
            "options": {}, "clock": None, "rated": False, "seat_order": "given",
            "match": "single", "created_at": 1}  # fmt: skip
    for n in range(10):
        now = service.clock()
        store.create(f"race{n}", spec, now, now + 60_000, 100, 100)
        stored = store.get(f"race{n}")
        outcomes = at_once(
            [
                lambda s=stored, t=now: store.change(s, "accept", "y_race", t, "gameid"),
                lambda s=stored, t=now: store.change(s, "cancel", "x_race", t),
                lambda s=stored, t=now: store.change(s, "decline", "y_race", t, "later"),
            ]
        )
        assert sum(o.ok for o in outcomes) == 1
        assert challenges.store.get(f"race{n}").status in {"accepted", "cancelled", "declined"}


def test_a_challenge_to_a_built_in_bot_is_accepted_at_once(client):
    ann = sign_up(client)
    made = challenge(client, ann["key"], [{"bot": "random"}], rated=True)
    assert made["status"] == "accepted" and made["game_id"]
    game = client.get(f"/v1/games/{made['game_id']}").json
    assert game["rated"] is True and game["status"] == "active"
    assert sorted(p["name"] for p in game["players"]) == sorted([ann["name"], "random"])


@pytest.mark.cluster_too
def test_a_three_player_challenge_starts_when_both_invitees_accepted(app, client):
    ann, bea, cid = sign_up(client), sign_up(client), sign_up(client, bot=True)
    made = challenge(client, ann["key"], [{"account": bea["name"]}, {"account": cid["name"]}])
    assert made["players"] == 3
    first = client.post(f"/v1/challenges/{made['id']}/accept", headers=bearer(bea["key"]))
    assert first.json["status"] == "open" and first.json["accepted_by"] == [bea["name"]]
    refused = client.post(f"/v1/challenges/{made['id']}/accept", headers=bearer(ann["key"]))
    assert refused.status_code == 403
    last = client.post(f"/v1/challenges/{made['id']}/accept", headers=bearer(cid["key"]))
    assert last.json["status"] == "accepted"
    game = client.get(f"/v1/games/{last.json['game_id']}").json
    assert sorted(p["name"] for p in game["players"]) == sorted(
        [ann["name"], bea["name"], cid["name"]]
    )
    for account in (ann, bea, cid):
        mine = client.get("/v1/me/games", headers=bearer(account["key"])).json
        assert last.json["game_id"] in [g["id"] for g in mine["games"]]


@pytest.mark.cluster_too
def test_an_accepted_challenge_shows_its_game_only_once_the_game_is_made(client, redis_client):
    """Accepting is two steps (the accept script, then the game): between them, or after a
    process died between them until the workers' repair, the challenge reads as open with
    no game id, so that whoever sees "accepted" can open the game at once; the challenger's
    stream (its ChallengeWatch) tells "accepted" with the game once it exists."""
    ann, bea = sign_up(client), sign_up(client)
    made = challenge(client, ann["key"], [{"account": bea["name"]}], seat_order="given")
    store = ChallengeStore(redis_client)
    service = GameService(redis_client)
    watch = ChallengeWatch(store, ann["name"].lower())
    assert watch.lines(service.clock(), opening=True) == []  # a stream opened before
    # The accepting process did only the first step (it was killed before the game).
    stored = store.get(made["id"])
    assert store.change(stored, "accept", bea["name"].lower(), service.clock(), "gAmE1d").ok
    read = client.get(f"/v1/challenges/{made['id']}", headers=bearer(ann["key"])).json
    assert read["status"] == "open" and read["game_id"] is None
    assert read["accepted_by"] == [bea["name"]]
    assert client.get("/v1/games/gAmE1d").status_code == 404
    assert watch.lines(service.clock()) == []  # the stream looks: nothing accepted yet
    # The workers' repair makes the game (REPAIR_AFTER_MS later: here at once).
    Challenges(service).start_game(store.get(made["id"]))
    store.game_made(made["id"])
    read = client.get(f"/v1/challenges/{made['id']}", headers=bearer(ann["key"])).json
    assert read["status"] == "accepted" and read["game_id"] == "gAmE1d"
    game = client.get("/v1/games/gAmE1d").json
    assert [p["name"] for p in game["players"]] == [ann["name"], bea["name"]]
    heard = [line for line in watch.lines(service.clock()) if line["type"] == "challenge_accepted"]
    assert [line["challenge"]["game_id"] for line in heard] == ["gAmE1d"]


def test_a_challenge_clock_of_null_is_refused_as_the_contract_says(client):
    """A clock is left out or is a Clock: null is neither (openapi.yaml's CreateChallenge)."""
    ann, bea = sign_up(client), sign_up(client)
    body = {"game": "keltis-card", "opponents": [{"account": bea["name"]}], "clock": None}
    refused = client.post("/v1/challenges", json=body, headers=bearer(ann["key"]))
    assert refused.status_code == 422 and refused.json["error"]["code"] == "invalid_request"
