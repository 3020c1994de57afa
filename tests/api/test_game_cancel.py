"""The creator of a game cancels it: a game of bots only (no person's token) too, with the
create answer's `creator_token` or the creator's account key. The game ends `cancelled`
(unrated, no result), its queued bot turns do nothing; anyone else is refused (401 without a
credential, 403 with another one) in the one error shape, and the refusal tells nothing about
the game. A rated game (and a rated match's game) is aborted only before every seat has
moved, as lichess aborts: after that it ends by a result (409 too_late_to_abort)."""

from __future__ import annotations

import secrets

import pytest

from application.bots import turns as bots
from application.games.service import GameService
from application.operations import jobs
from application.tournaments import matches
from store import keys
from store.games.index import ladder_due
from tests.api.helpers import bearer
from tests.api.test_challenges import at_once, challenge
from tests.api.test_matches import play_out

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
        "players": [{"account": creator["name"]}, {"name": "rex", "bot": "random"}],
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


def move_turn(client, game_id: str, key: str) -> dict:
    """The first legal moves of the key's seat until its turn passes; the game after."""
    url = f"/v1/games/{game_id}"
    seat = client.get(url, headers=bearer(key)).json["seat"]
    game = client.get(url).json
    while game["to_move"] == seat and game["status"] == "active":
        legal = client.get(f"{url}/moves", headers=bearer(key)).json["moves"]
        moved = client.post(f"{url}/moves", json=legal[0], headers=bearer(key))
        assert moved.status_code == 200, moved.json
        game = client.get(url).json
    return game


def rated_against_greedy(client, creator: dict) -> str:
    """A rated game of the creator's account (seat 0, to move) against greedy; its id."""
    body = {"game": CARD, "players": [{"account": creator["name"]}, {"bot": "greedy"}]}
    made = client.post("/v1/games", json={**body, "rated": True}, headers=bearer(creator["key"]))
    assert made.status_code == 201, made.json
    return made.json["id"]


def test_a_rated_game_is_aborted_only_before_every_seat_has_moved(app, client):
    service: GameService = app.extensions["keltis"]
    creator = sign_up(client)
    early = rated_against_greedy(client, creator)
    move_turn(client, early, creator["key"])  # greedy has not moved: still an abort
    aborted = client.post(f"/v1/games/{early}/cancel", headers=bearer(creator["key"]))
    assert aborted.status_code == 200 and aborted.json["status"] == "cancelled"
    assert not ladder_due(service.load(early)[0])
    late = rated_against_greedy(client, creator)
    move_turn(client, late, creator["key"])
    record = service.load(late)[0]
    assert bots.play_bot_turns(service, late, record.version) > 0  # greedy's first turn
    assert service.load(late)[0].all_moved
    refused = client.post(f"/v1/games/{late}/cancel", headers=bearer(creator["key"]))
    assert_refused(refused, 409, "too_late_to_abort")
    assert refused.json["error"]["rule"] == "abort_before_every_seat_moved"
    assert client.get(f"/v1/games/{late}").json["status"] == "active"
    resigned = client.post(f"/v1/games/{late}/resign", headers=bearer(creator["key"]))
    assert resigned.status_code == 200 and resigned.json["status"] == "finished"
    assert ladder_due(service.load(late)[0])  # a result: the loss is rated


def test_an_unrated_game_is_cancelled_by_its_creator_after_every_seat_moved(app, client):
    creator = sign_up(client)
    body = {"game": CARD, "players": [{"account": creator["name"]}, {"bot": "greedy"}]}
    game_id = client.post("/v1/games", json=body, headers=bearer(creator["key"])).json["id"]
    service = app.extensions["keltis"]
    move_turn(client, game_id, creator["key"])
    bots.play_bot_turns(service, game_id, service.load(game_id)[0].version)
    assert service.load(game_id)[0].all_moved
    cancelled = client.post(f"/v1/games/{game_id}/cancel", headers=bearer(creator["key"]))
    assert cancelled.status_code == 200 and cancelled.json["status"] == "cancelled"


def race_abort_with_first_move(app, client) -> tuple:
    """A rated game of two accounts in which seat 0 has moved; seat 1's first move and seat
    0's abort sent at once: (move answer, cancel answer, the record after)."""
    ann, bea = sign_up(client), sign_up(client)
    body = {"game": CARD, "players": [{"account": ann["name"]}, {"open": True}], "rated": True}
    game_id = client.post("/v1/games", json=body, headers=bearer(ann["key"])).json["id"]
    joined = client.post(f"/v1/games/{game_id}/seats/1/join", json={}, headers=bearer(bea["key"]))
    assert joined.status_code == 200, joined.json
    move_turn(client, game_id, ann["key"])
    url = f"/v1/games/{game_id}"
    first = client.get(f"{url}/moves", headers=bearer(bea["key"])).json["moves"][0]
    move, cancel = at_once(
        [
            lambda: app.test_client().post(f"{url}/moves", json=first, headers=bearer(bea["key"])),
            lambda: app.test_client().post(f"{url}/cancel", headers=bearer(ann["key"])),
        ]
    )
    return move, cancel, app.extensions["keltis"].load(game_id)[0]


def test_an_abort_racing_the_last_first_move_is_refused_or_the_move_is(app, client):
    """The abort is appended at the version it was checked at: of a first move and an abort
    sent at once, exactly one lands; either the game is cancelled before the seat moved, or
    the seat moved and the abort is refused."""
    for _ in range(6):
        move, cancel, record = race_abort_with_first_move(app, client)
        if cancel.status_code == 200:
            assert move.status_code == 409, move.json
            assert record.cancelled and 1 not in record.moved
        else:
            assert cancel.json["error"]["code"] == "too_late_to_abort", cancel.json
            assert move.status_code == 200 and record.all_moved and not record.cancelled


def test_a_rated_match_cannot_be_voided_by_cancelling_a_game_played_into(app, client):
    service = GameService(app.extensions["keltis"].client)
    ann, bea = sign_up(client), sign_up(client)
    keys_of = {ann["name"]: ann["key"], bea["name"]: bea["key"]}
    made = challenge(
        client, ann["key"], [{"account": bea["name"]}], game="keltis-dice", match="two_boards",
        rated=True,
    )  # fmt: skip
    accepted = client.post(f"/v1/challenges/{made['id']}/accept", headers=bearer(bea["key"])).json
    first, match_id = accepted["game_id"], accepted["match_id"]
    while not service.load(first)[0].all_moved:  # each seat's first turn
        game = client.get(f"/v1/games/{first}").json
        move_turn(client, first, keys_of[game["players"][game["to_move"]]["account"]])
    refused = client.post(f"/v1/games/{first}/cancel", headers=bearer(ann["key"]))
    assert_refused(refused, 409, "too_late_to_abort")
    play_out(client, first, keys_of)
    assert matches.advance(service, match_id)
    second = client.get(f"/v1/matches/{match_id}").json["games"][1]["id"]
    refused = client.post(f"/v1/games/{second}/cancel", headers=bearer(ann["key"]))
    assert_refused(refused, 409, "too_late_to_abort")  # its first game was played
    assert client.get(f"/v1/matches/{match_id}").json["status"] == "running"
