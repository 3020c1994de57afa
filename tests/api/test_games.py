"""The /v1/games endpoints over a real Redis, every response held against openapi.yaml."""

from __future__ import annotations

import json
import threading
import time

import pytest

from store import keys
from tests.api.helpers import (
    assert_nothing_hidden,
    bearer,
    create,
    play_to_end,
    start_humans,
)


def seed_of(redis_client, game_id: str) -> str:
    first = json.loads(redis_client.lindex(keys.log(game_id), 0))
    return first["e"]["hidden"]["seed"]


def error_of(response) -> dict:
    assert set(response.json) == {"error"}
    return response.json["error"]


# ----- creating and joining ------------------------------------------------------------


def test_create_returns_tokens_only_for_named_human_seats(client, toy):
    created = create(
        client, toy, [{"name": "ann"}, {"open": True}, {"name": "rob", "bot": "first"}]
    )
    assert created["status"] == "waiting"
    assert [s["seat"] for s in created["seats"]] == [0]
    assert len(created["id"]) >= 16
    assert created["seats"][0]["token"].startswith(created["id"] + ".")


def test_R2_game_ids_are_random_not_sequential(client, toy):
    ids = [create(client, toy, [{"name": "a"}, {"open": True}])["id"] for _ in range(3)]
    assert len(set(ids)) == 3
    assert all(len(i) >= 22 for i in ids)  # 128 bits, URL-safe base64


@pytest.mark.parametrize(
    ("players", "code"),
    [
        ([{"name": "solo"}], "invalid_players"),
        ([{"name": f"p{i}"} for i in range(5)], "invalid_players"),
        ([{"name": "ann"}, {"name": "rob", "bot": "nosuchbot"}], "invalid_players"),
        ([{"name": "ann"}, {"open": True, "name": "x"}], "invalid_request"),
        ([{"name": "ann"}, {}], "invalid_request"),
    ],
)
def test_create_rejects_bad_players_with_422(client, toy, players, code):
    response = client.post("/v1/games", json={"game": toy, "players": players})
    assert response.status_code == 422
    assert error_of(response)["code"] == code


def test_create_rejects_invalid_options_with_the_rule(client, toy):
    body = {"game": toy, "players": [{"name": "a"}, {"name": "b"}], "options": {"nope": 1}}
    response = client.post("/v1/games", json=body)
    assert response.status_code == 422
    assert error_of(response) == {
        "code": "invalid_options",
        "message": "unknown option nope",
        "rule": "X1",
    }


def test_create_rejects_unknown_game_and_unknown_fields(client, toy):
    unknown = client.post("/v1/games", json={"game": "chess", "players": [{"name": "a"}]})
    assert unknown.status_code == 422
    assert error_of(unknown)["code"] == "unknown_game"
    extra = client.post("/v1/games", json={"game": toy, "players": [{"name": "a"}], "x": 1})
    assert extra.status_code == 422
    assert "x" in error_of(extra)["message"]


def test_malformed_json_is_400_and_a_non_object_is_422(client, toy):
    bad = client.post("/v1/games", data=b"{not json", content_type="application/json")
    assert bad.status_code == 400
    assert error_of(bad) == {
        "code": "malformed_json",
        "message": "the body is not valid JSON",
        "rule": None,
    }
    listed = client.post("/v1/games", json=[1, 2])
    assert listed.status_code == 422


def test_oversized_body_is_413_in_the_error_shape(client, toy):
    body = json.dumps({"game": toy, "players": [{"name": "a" * 70_000}]})
    response = client.post("/v1/games", data=body, content_type="application/json")
    assert response.status_code == 413
    assert error_of(response)["code"] == "request_entity_too_large"


@pytest.mark.cluster_too
def test_join_gives_a_token_and_the_last_seat_starts_the_game(client, toy):
    created = create(client, toy, [{"name": "ann"}, {"open": True}, {"open": True}])
    gid = created["id"]
    first = client.post(f"/v1/games/{gid}/seats/1/join", json={"name": "bea"})
    assert first.status_code == 200
    assert first.json["status"] == "waiting"
    taken = client.post(f"/v1/games/{gid}/seats/1/join", json={"name": "cat"})
    assert taken.status_code == 409
    assert error_of(taken)["code"] == "seat_taken"
    last = client.post(f"/v1/games/{gid}/seats/2/join", json={"name": "cat"})
    assert last.json["status"] == "active"
    state = client.get(f"/v1/games/{gid}", headers=bearer(last.json["token"])).json
    assert state["seat"] == 2
    assert [p["name"] for p in state["players"]] == ["ann", "bea", "cat"]
    assert state["view"]["hand_sizes"] == [2, 2, 2]


def test_join_errors(client, toy):
    gid = create(client, toy, [{"name": "ann"}, {"open": True}])["id"]
    assert client.post(f"/v1/games/{gid}/seats/0/join", json={"name": "x"}).status_code == 409
    assert client.post(f"/v1/games/{gid}/seats/7/join", json={"name": "x"}).status_code == 404
    # neither a name nor an account key (a key joins without a name)
    assert client.post(f"/v1/games/{gid}/seats/1/join", json={}).status_code == 401
    missing = client.post("/v1/games/nosuchgame0000000000/seats/1/join", json={"name": "x"})
    assert missing.status_code == 404
    assert error_of(missing)["code"] == "game_not_found"


# ----- reading -------------------------------------------------------------------------


def test_unknown_game_is_404(client, toy):
    for path in ("", "/moves", "/events"):
        response = client.get(f"/v1/games/AAAAAAAAAAAAAAAAAAAAAA{path}")
        assert response.status_code == 404
        assert error_of(response)["code"] == "game_not_found"


def test_R2_views_show_only_the_callers_hand(client, toy, redis_client):
    gid, tokens = start_humans(client, toy, ["ann", "bea"])
    seed = seed_of(redis_client, gid)
    spectator = client.get(f"/v1/games/{gid}").json
    assert spectator["seat"] is None
    assert spectator["view"]["hand"] is None
    assert_nothing_hidden(spectator, None, [seed])
    from application.games.service import GameService
    from domain.registry import get_rules

    record, _, _ = GameService(redis_client).load(gid)
    for seat, token in tokens.items():
        seen = client.get(f"/v1/games/{gid}", headers=bearer(token)).json
        assert seen["view"] == get_rules(toy).view(record.state, seat)
        assert "hands" not in seen["view"]
        assert_nothing_hidden(seen, seat, [seed])


def test_etag_is_the_version_and_if_none_match_gives_304(client, toy):
    gid, tokens = start_humans(client, toy, ["ann", "bea"])
    first = client.get(f"/v1/games/{gid}")
    assert first.headers["ETag"] == f'"{first.json["version"]}"'
    again = client.get(f"/v1/games/{gid}", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    assert again.data == b""
    client.post(f"/v1/games/{gid}/moves", json={"action": "pass"}, headers=bearer(tokens[0]))
    changed = client.get(f"/v1/games/{gid}", headers={"If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200


def test_tokens_missing_bad_or_of_another_game(client, toy):
    gid, tokens = start_humans(client, toy, ["ann", "bea"])
    _other, other_tokens = start_humans(client, toy, ["cat", "dan"])
    moves = f"/v1/games/{gid}/moves"
    assert client.get(moves).status_code == 401
    assert client.get(moves).headers["WWW-Authenticate"] == "Bearer"
    assert client.get(moves, headers=bearer(tokens[0] + "x")).status_code == 401
    assert client.get(moves, headers={"Authorization": "Basic abc"}).status_code == 401
    forged = f"{gid}.0.{other_tokens[0].split('.')[2]}"
    assert client.get(moves, headers=bearer(forged)).status_code == 401
    foreign = client.get(moves, headers=bearer(other_tokens[0]))
    assert foreign.status_code == 403
    assert error_of(foreign)["code"] == "token_of_another_game"
    post = client.post(moves, json={"action": "pass"})
    assert post.status_code == 401
    assert client.get(f"/v1/games/{gid}", headers=bearer("garbage")).status_code == 401


def test_R2_tokens_are_stored_hashed(client, toy, redis_client):
    gid, tokens = start_humans(client, toy, ["ann", "bea"])
    stored = redis_client.hgetall(keys.tokens(gid))
    assert set(stored) == {b"0", b"1"}
    for seat, token in tokens.items():
        assert token.encode() not in stored[str(seat).encode()]
        assert len(stored[str(seat).encode()]) == 64


def test_legal_moves_are_bodies_to_post_as_is(client, toy):
    gid, tokens = start_humans(client, toy, ["ann", "bea"])
    waiting = client.get(f"/v1/games/{gid}/moves", headers=bearer(tokens[1])).json
    assert waiting["moves"] == []
    legal = client.get(f"/v1/games/{gid}/moves", headers=bearer(tokens[0])).json
    assert {"action": "pass"} in legal["moves"]
    played = client.post(
        f"/v1/games/{gid}/moves", json=legal["moves"][0], headers=bearer(tokens[0])
    )
    assert played.status_code == 200
    assert played.json["version"] == legal["version"] + 3
    assert played.json["to_move"] == 1
    assert [e["event"]["type"] for e in played.json["events"]] == ["played", "drew", "turn_ended"]
    assert played.json["events"][1]["event"]["hidden"]  # the drawer sees its own card
    assert played.json["events"][0]["cmd"] == legal["moves"][0]
    assert played.headers["ETag"] == f'"{played.json["version"]}"'


# ----- playing: errors -----------------------------------------------------------------


def test_not_your_turn_is_409_with_the_rule(client, toy):
    gid, tokens = start_humans(client, toy, ["ann", "bea"])
    response = client.post(
        f"/v1/games/{gid}/moves", json={"action": "pass"}, headers=bearer(tokens[1])
    )
    assert response.status_code == 409
    assert error_of(response)["code"] == "not_your_turn"


def test_illegal_move_is_422_with_the_rule_and_no_hidden_data(client, toy, redis_client):
    gid, tokens = start_humans(client, toy, ["ann", "bea"])
    response = client.post(
        f"/v1/games/{gid}/moves", json={"action": "play", "card": 99}, headers=bearer(tokens[0])
    )
    assert response.status_code == 422
    assert error_of(response) == {
        "code": "illegal_move",
        "message": "that card is not in your hand",
        "rule": "X3",
    }
    assert_nothing_hidden(response.json, 0, [seed_of(redis_client, gid)])
    no_action = client.post(f"/v1/games/{gid}/moves", json={"card": 1}, headers=bearer(tokens[0]))
    assert no_action.status_code == 422
    assert error_of(no_action)["code"] == "invalid_request"


def test_stale_expected_version_is_409_with_the_current_version(client, toy, redis_client):
    gid, tokens = start_humans(client, toy, ["ann", "bea"])
    version = client.get(f"/v1/games/{gid}").json["version"]
    moves = f"/v1/games/{gid}/moves"
    ok = client.post(
        moves, json={"action": "pass", "expected_version": version}, headers=bearer(tokens[0])
    )
    assert ok.status_code == 200
    stale = client.post(
        moves, json={"action": "pass", "expected_version": version}, headers=bearer(tokens[1])
    )
    assert stale.status_code == 409
    assert error_of(stale)["current_version"] == version + 1
    # the message says the version and which way the expected one is off
    assert error_of(stale)["message"] == f"the game has moved on to version {version + 1}"
    by_header = client.post(
        moves, json={"action": "pass"}, headers={**bearer(tokens[1]), "If-Match": f'"{version}"'}
    )
    assert by_header.status_code == 409
    assert error_of(by_header)["code"] == "version_conflict"
    assert redis_client.llen(keys.log(gid)) == version + 1


def test_a_finished_game_refuses_moves_with_409(client, toy):
    gid, tokens = start_humans(client, toy, ["ann", "bea"])
    play_to_end({0: client, 1: client}, gid, tokens)
    response = client.post(
        f"/v1/games/{gid}/moves", json={"action": "pass"}, headers=bearer(tokens[0])
    )
    assert response.status_code == 409
    assert error_of(response)["code"] == "game_finished"
    assert client.get(f"/v1/games/{gid}/moves", headers=bearer(tokens[0])).json["moves"] == []


def test_moves_before_the_game_starts_are_409(client, toy):
    created = create(client, toy, [{"name": "ann"}, {"open": True}])
    response = client.post(
        f"/v1/games/{created['id']}/moves",
        json={"action": "pass"},
        headers=bearer(created["seats"][0]["token"]),
    )
    assert response.status_code == 409
    assert error_of(response)["code"] == "game_not_started"


def test_a_repeated_idempotency_key_returns_the_first_answer_and_appends_nothing(
    client, toy, redis_client
):
    gid, tokens = start_humans(client, toy, ["ann", "bea"])
    headers = {**bearer(tokens[0]), "Idempotency-Key": "move-1"}
    move = client.get(f"/v1/games/{gid}/moves", headers=bearer(tokens[0])).json["moves"][0]
    first = client.post(f"/v1/games/{gid}/moves", json=move, headers=headers)
    length = redis_client.llen(keys.log(gid))
    again = client.post(f"/v1/games/{gid}/moves", json=move, headers=headers)
    assert (again.status_code, again.json) == (first.status_code, first.json)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert redis_client.llen(keys.log(gid)) == length
    reused = client.post(f"/v1/games/{gid}/moves", json={"action": "pass"}, headers=headers)
    assert reused.status_code == 422
    assert error_of(reused)["code"] == "idempotency_key_reused"


# ----- events --------------------------------------------------------------------------


def test_R2_events_are_redacted_per_viewer_until_the_end(client, toy, redis_client):
    gid, tokens = start_humans(client, toy, ["ann", "bea"])
    seed = seed_of(redis_client, gid)
    client.post(f"/v1/games/{gid}/moves", json={"action": "pass"}, headers=bearer(tokens[0]))
    for viewer, headers in [(None, {}), (0, bearer(tokens[0])), (1, bearer(tokens[1]))]:
        events = client.get(f"/v1/games/{gid}/events", headers=headers).json
        assert [e["version"] for e in events["events"]] == list(range(1, events["version"] + 1))
        assert_nothing_hidden(events, viewer, [seed])
        dealt = [e["event"] for e in events["events"] if e["event"]["type"] == "dealt"]
        assert ["hidden" in e for e in dealt] == [viewer == s for s in range(2)]
    play_to_end({0: client, 1: client}, gid, tokens)
    revealed = client.get(f"/v1/games/{gid}/events").json
    assert revealed["status"] == "finished"
    assert revealed["events"][0]["event"]["hidden"]["seed"] == seed


def test_R3_a_finished_game_reveals_everything_and_its_result(client, toy):
    gid, tokens = start_humans(client, toy, ["ann", "bea"])
    final, _ = play_to_end({0: client, 1: client}, gid, tokens)
    assert final["result"]["winners"]
    assert "deck" in final["view"]
    assert "removed" in final["view"]


def test_events_after_n_and_limit(client, toy):
    gid, _tokens = start_humans(client, toy, ["ann", "bea"])
    page = client.get(f"/v1/games/{gid}/events?after=2&limit=3").json
    assert [e["version"] for e in page["events"]] == [3, 4, 5]
    assert client.get(f"/v1/games/{gid}/events?after=-1").status_code == 400
    assert client.get(f"/v1/games/{gid}/events?bogus=1").status_code == 400


@pytest.mark.parametrize("query", ["limit=2&limit=3", "limit=2&limit={}", "limit=x", "limit=2.5"])
def test_a_query_parameter_given_twice_or_not_an_integer_is_a_400(client, toy, query):
    """Each query parameter is one value: taking the first of two (or the last) would answer
    a question the client did not ask."""
    gid, _tokens = start_humans(client, toy, ["ann", "bea"])
    answer = client.get(f"/v1/games/{gid}/events?after=0&{query}")
    assert answer.status_code == 400
    assert answer.json["error"]["code"] == "invalid_query"
    assert answer.json["error"]["message"].startswith("limit:")


def test_events_wait_holds_until_a_move_arrives(app, client, toy):
    gid, tokens = start_humans(client, toy, ["ann", "bea"])
    app.extensions["keltis"].watcher.safety_s = 60.0  # only the move's notification wakes it
    version = client.get(f"/v1/games/{gid}").json["version"]
    mover = app.test_client()

    def move_soon():
        time.sleep(0.3)
        mover.post(f"/v1/games/{gid}/moves", json={"action": "pass"}, headers=bearer(tokens[0]))

    thread = threading.Thread(target=move_soon)
    started = time.monotonic()
    thread.start()
    waited = client.get(f"/v1/games/{gid}/events?after={version}&wait=20").json
    elapsed = time.monotonic() - started
    thread.join()
    assert [e["event"]["type"] for e in waited["events"]] == ["turn_ended"]
    # Woken by the move (0.3 s in), not at the end of the 20 s wait: room for a loaded machine.
    assert 0.25 < elapsed < 15


def test_events_wait_gives_up_after_the_wait(client, toy):
    gid, _ = start_humans(client, toy, ["ann", "bea"])
    version = client.get(f"/v1/games/{gid}").json["version"]
    started = time.monotonic()
    waited = client.get(f"/v1/games/{gid}/events?after={version}&wait=0.3").json
    assert waited["events"] == []
    assert 0.25 < time.monotonic() - started < 10


# ----- whole games ---------------------------------------------------------------------


def test_a_whole_game_over_http_with_separate_clients(app, toy):
    clients = {seat: app.test_client() for seat in range(3)}
    gid, tokens = start_humans(clients[0], toy, ["ann", "bea", "cat"])
    final, moves = play_to_end(clients, gid, tokens)
    assert final["status"] == "finished"
    assert moves == 9
    assert final["to_move"] is None
