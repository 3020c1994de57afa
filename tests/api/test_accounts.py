"""Accounts: sign-up, keys on every held seat, rotation, account seats,
the caller's games, the webhook allow-list; over the real Redis, every answer held against
openapi.yaml."""

from __future__ import annotations

import hmac
import json
import secrets

import pytest

from application.accounts import auth
from tests.api.helpers import bearer, create, play_to_end


def fresh_name(prefix: str = "acc") -> str:
    return f"{prefix}_{secrets.token_hex(6)}"


def sign_up(client, name: str | None = None, bot: bool = False, **extra) -> dict:
    body = {"name": name or fresh_name(), "bot": bot, **extra}
    response = client.post("/v1/accounts", json=body)
    assert response.status_code == 201, response.json
    return response.json


def error_code(response) -> str:
    return response.json["error"]["code"]


@pytest.mark.cluster_too
def test_sign_up_shows_the_key_and_secret_once_and_stores_only_the_keys_hash(client, redis_client):
    name = fresh_name("Alpha")
    made = sign_up(client, name, bot=True, webhook="http://127.0.0.1:9101/move")
    assert made["name"] == name and made["bot"] is True
    assert made["webhook"] == "http://127.0.0.1:9101/move"
    assert made["key"].startswith("kk_") and len(made["key"]) >= 3 + 22  # >= 128 bits
    assert len(made["webhook_secret"]) >= 22
    stored = {
        k.decode(): v.decode()
        for k, v in redis_client.hgetall(f"keltis:account:{{a:{name.lower()}}}:record").items()
    }
    assert made["key"] not in json.dumps(stored)
    assert stored["key_hash"] == auth.key_digest(made["key"])


def test_names_are_unique_ignoring_case(client):
    name = fresh_name("Case")
    sign_up(client, name)
    again = client.post("/v1/accounts", json={"name": name.upper()})
    assert again.status_code == 409 and error_code(again) == "name_taken"
    profile = client.get(f"/v1/accounts/{name.upper()}")
    assert profile.status_code == 200 and profile.json["name"] == name


@pytest.mark.parametrize("name", ["a", "x" * 31, "has space", "é_name", "dot.name", "ok\n"])
def test_bad_names_are_refused(client, name):
    response = client.post("/v1/accounts", json={"name": name})
    assert response.status_code == 422 and error_code(response) == "invalid_request"


def test_unknown_or_malformed_profile_names_are_404(client):
    assert client.get(f"/v1/accounts/{fresh_name()}").status_code == 404
    assert client.get("/v1/accounts/x").status_code == 404


@pytest.mark.parametrize(
    "webhook",
    [
        "http://10.0.0.1/move",
        "http://169.254.169.254/latest",
        "http://[::ffff:10.0.0.1]/x",
        "ftp://127.0.0.1/x",
        "http://user:pw@127.0.0.1/x",
        "http:///nohost",
        "http://127.0.0.1/" + "a" * 600,
        "",
    ],
)
def test_a_webhook_outside_the_allow_list_is_refused(client, webhook):
    response = client.post("/v1/accounts", json={"name": fresh_name(), "webhook": webhook})
    assert response.status_code == 422, response.json
    assert error_code(response) in {"webhook_not_allowed", "invalid_request"}


def test_localhost_and_ipv6_loopback_webhooks_are_allowed(client):
    sign_up(client, webhook="http://localhost:9101/move")
    sign_up(client, webhook="https://[::1]:8443/move")


def test_me_shows_the_webhook_never_the_key_and_patch_changes_it(client):
    made = sign_up(client, webhook="http://127.0.0.1:9101/a")
    me = client.get("/v1/me", headers=bearer(made["key"]))
    assert me.status_code == 200 and me.json["webhook"] == "http://127.0.0.1:9101/a"
    assert me.headers["Cache-Control"] == "no-store"
    patched = client.patch(
        "/v1/me", json={"webhook": "http://127.0.0.1:9102/b"}, headers=bearer(made["key"])
    )
    assert patched.status_code == 200 and patched.json["webhook"] == "http://127.0.0.1:9102/b"
    refused = client.patch(
        "/v1/me", json={"webhook": "http://10.1.2.3/b"}, headers=bearer(made["key"])
    )
    assert refused.status_code == 422 and error_code(refused) == "webhook_not_allowed"
    cleared = client.patch("/v1/me", json={"webhook": None}, headers=bearer(made["key"]))
    assert cleared.json["webhook"] is None
    profile = client.get(f"/v1/accounts/{made['name']}")
    for answer in (me, patched, cleared, profile):
        text = json.dumps(answer.json)
        assert made["key"] not in text and made["webhook_secret"] not in text
        assert "key_hash" not in text


def test_me_needs_a_valid_key(client):
    assert client.get("/v1/me").status_code == 401
    assert client.get("/v1/me", headers=bearer("kk_" + "A" * 32)).status_code == 401
    assert client.get("/v1/me", headers=bearer("not-a-key")).status_code == 401


def test_a_rotated_key_stops_working_at_once(client, toy):
    made = sign_up(client, bot=True)
    game = create(client, toy, [{"account": made["name"]}, {"bot": "first"}], key=made["key"])
    rotated = client.post("/v1/me/key", headers=bearer(made["key"]))
    assert rotated.status_code == 200
    assert rotated.json["key"] != made["key"]
    assert rotated.json["webhook_secret"] != made["webhook_secret"]
    assert client.get("/v1/me", headers=bearer(made["key"])).status_code == 401
    old = client.get(f"/v1/games/{game['id']}", headers=bearer(made["key"]))
    assert old.status_code == 401
    new = client.get(f"/v1/games/{game['id']}", headers=bearer(rotated.json["key"]))
    assert new.status_code == 200 and new.json["seat"] == 0


def test_the_key_is_compared_in_constant_time(client, monkeypatch):
    made = sign_up(client)
    calls = []
    real = hmac.compare_digest

    def spy(a, b):
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(auth.hmac, "compare_digest", spy)
    assert client.get("/v1/me", headers=bearer(made["key"])).status_code == 200
    assert (auth.key_digest(made["key"]),) * 2 in calls


@pytest.mark.parametrize("bot", [False, True], ids=["person", "bot_account"])
def test_an_account_a_bots_too_is_seated_only_with_its_own_key(client, toy, bot):
    made = sign_up(client, bot=bot)
    other = sign_up(client)
    body = {"game": toy, "players": [{"account": made["name"]}, {"name": "ann"}]}
    refused = client.post("/v1/games", json=body)
    assert refused.status_code == 403 and error_code(refused) == "seat_needs_consent"
    foreign = client.post("/v1/games", json=body, headers=bearer(other["key"]))
    assert foreign.status_code == 403 and error_code(foreign) == "seat_needs_consent"
    own = client.post("/v1/games", json=body, headers=bearer(made["key"]))
    assert own.status_code == 201
    assert own.json["players"][0]["account"] == made["name"]
    assert [s["seat"] for s in own.json["seats"]] == [1]  # no token for the account's seat
    missing = {"game": toy, "players": [{"account": fresh_name()}, {"name": "ann"}]}
    assert error_code(client.post("/v1/games", json=missing)) == "account_not_found"


def test_the_key_works_on_every_held_seat_and_403_elsewhere(client, toy):
    made = sign_up(client, bot=True)
    key = made["key"]
    one = create(client, toy, [{"account": made["name"]}, {"name": "bea"}], key=key)
    two = create(client, toy, [{"name": "bea"}, {"account": made["name"]}], key=key)
    stranger = create(client, toy, [{"name": "bea"}, {"name": "cid"}])
    assert client.get(f"/v1/games/{one['id']}", headers=bearer(key)).json["seat"] == 0
    assert client.get(f"/v1/games/{two['id']}", headers=bearer(key)).json["seat"] == 1
    moves = client.get(f"/v1/games/{one['id']}/moves", headers=bearer(key))
    assert moves.status_code == 200 and moves.json["moves"]
    played = client.post(
        f"/v1/games/{one['id']}/moves", json=moves.json["moves"][0], headers=bearer(key)
    )
    assert played.status_code == 200, played.json
    for path in ("", "/moves", "/events"):
        denied = client.get(f"/v1/games/{stranger['id']}{path}", headers=bearer(key))
        assert denied.status_code == 403 and error_code(denied) == "seat_not_held"
    post = client.post(f"/v1/games/{stranger['id']}/moves", json={"action": "pass"},
                       headers=bearer(key))  # fmt: skip
    assert post.status_code == 403
    # game tokens keep working beside keys
    token = one["seats"][0]["token"]
    assert client.get(f"/v1/games/{one['id']}", headers=bearer(token)).json["seat"] == 1


def test_an_account_with_two_seats_picks_one_with_x_keltis_seat(client, toy):
    made = sign_up(client, bot=True)
    key = made["key"]
    players = [{"account": made["name"]}, {"account": made["name"]}]
    body = {"game": toy, "players": players, "allow_same_account": True}  # unrated only
    game = client.post("/v1/games", json=body, headers=bearer(key)).json
    assert client.get(f"/v1/games/{game['id']}", headers=bearer(key)).json["seat"] == 0
    second = {**bearer(key), "X-Keltis-Seat": "1"}
    assert client.get(f"/v1/games/{game['id']}", headers=second).json["seat"] == 1
    wrong = {**bearer(key), "X-Keltis-Seat": "3"}
    assert client.get(f"/v1/games/{game['id']}", headers=wrong).status_code == 403
    # both seats are played with the one key: the seat to move acts
    state, moves = play_to_end({0: client, 1: client}, game["id"], {0: key, 1: key})
    assert state["status"] == "finished" and moves > 0
    played = client.get(f"/v1/accounts/{made['name']}").json["games_played"]
    assert played[toy] == 1


def test_joining_with_a_key_needs_no_name(client, toy):
    made = sign_up(client)
    game = create(client, toy, [{"name": "ann"}, {"open": True}])
    nameless = client.post(f"/v1/games/{game['id']}/seats/1/join", json={})
    assert nameless.status_code == 401
    joined = client.post(
        f"/v1/games/{game['id']}/seats/1/join", json={}, headers=bearer(made["key"])
    )
    assert joined.status_code == 200, joined.json
    shown = client.get(f"/v1/games/{game['id']}", headers=bearer(made["key"])).json
    assert shown["seat"] == 1
    assert shown["players"][1]["name"] == made["name"]
    assert shown["players"][1]["account"] == made["name"]
    events = client.get(f"/v1/games/{game['id']}/events").json["events"]
    assert any(e["event"].get("account") == made["name"] for e in events)


def test_my_games_lists_games_in_play_with_my_turn(client, toy):
    made = sign_up(client)
    key = made["key"]
    mine_first = client.post(
        "/v1/games",
        json={"game": toy, "players": [{"account": made["name"]}, {"name": "bea"}]},
        headers=bearer(key),
    ).json
    theirs_first = client.post(
        "/v1/games",
        json={"game": toy, "players": [{"name": "bea"}, {"account": made["name"]}]},
        headers=bearer(key),
    ).json
    waiting = client.post(
        "/v1/games",
        json={"game": toy, "players": [{"account": made["name"]}, {"open": True}]},
        headers=bearer(key),
    ).json
    listed = client.get("/v1/me/games?status=active", headers=bearer(key))
    assert listed.status_code == 200
    games = {g["id"]: g for g in listed.json["games"]}
    assert set(games) == {mine_first["id"], theirs_first["id"]}
    assert games[mine_first["id"]]["my_turn"] is True
    assert games[theirs_first["id"]]["my_turn"] is False
    assert games[theirs_first["id"]]["to_move"] == 0
    assert games[mine_first["id"]]["deadline"] is None
    every = client.get("/v1/me/games", headers=bearer(key)).json["games"]
    assert waiting["id"] in {g["id"] for g in every}
    page = client.get("/v1/me/games?limit=1", headers=bearer(key)).json
    assert len(page["games"]) == 1 and isinstance(page["next_cursor"], str)
    rest = client.get(f"/v1/me/games?cursor={page['next_cursor']}", headers=bearer(key)).json
    assert [g["id"] for g in page["games"] + rest["games"]] == [g["id"] for g in every]
    assert client.get("/v1/me/games").status_code == 401


def test_no_key_or_secret_leaks_in_any_get(client, toy):
    made = sign_up(client, bot=True, webhook="http://127.0.0.1:9101/move")
    key = made["key"]
    game = create(client, toy, [{"account": made["name"]}, {"name": "bea"}], key=key)
    answers = [
        client.get(f"/v1/accounts/{made['name']}"),
        client.get("/v1/me", headers=bearer(key)),
        client.get("/v1/me/games", headers=bearer(key)),
        client.get(f"/v1/games/{game['id']}", headers=bearer(key)),
        client.get(f"/v1/games/{game['id']}/events", headers=bearer(key)),
        client.get("/v1/games"),
    ]
    for answer in answers:
        assert answer.status_code == 200
        text = answer.get_data(as_text=True)
        assert key not in text and made["webhook_secret"] not in text
        assert auth.key_digest(key) not in text


def test_account_indexes_are_rebuilt_from_the_logs(app, client, toy, redis_client):
    from api.core.extensions import EXTENSION
    from store import keys

    made = sign_up(client, bot=True)
    game = create(client, toy, [{"account": made["name"]}, {"name": "bea"}], key=made["key"])
    folded = made["name"].lower()
    redis_client.delete(
        keys.account_games(folded), keys.account_playing(folded),
        keys.account_games_of(folded, toy),
    )  # fmt: skip
    assert client.get("/v1/me/games", headers=bearer(made["key"])).json["games"] == []
    app.extensions[EXTENSION].rebuild_index()
    listed = client.get("/v1/me/games?status=active", headers=bearer(made["key"])).json
    assert [g["id"] for g in listed["games"]] == [game["id"]]
    assert client.get(f"/v1/accounts/{made['name']}").json["games_played"][toy] == 1


def test_my_games_show_the_deadline_of_a_clocked_game(client, toy):
    made = sign_up(client)
    clock = {"move_seconds": 30, "bank_seconds": 0, "fallback": "random", "max_timeouts": 3}
    created = client.post(
        "/v1/games",
        json={"game": toy, "players": [{"account": made["name"]}, {"name": "bea"}], "clock": clock},
        headers=bearer(made["key"]),
    ).json
    game = client.get(f"/v1/games/{created['id']}").json
    (mine,) = client.get("/v1/me/games", headers=bearer(made["key"])).json["games"]
    assert mine["deadline"] == game["deadline"] is not None
