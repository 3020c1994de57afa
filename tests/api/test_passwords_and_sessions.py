"""Passwords and sign-in sessions over the real Redis, every answer held against
openapi.yaml: sign-in by name and password, one answer for a wrong name and a wrong password,
the attempts' limits (429 with Retry-After), the sessions' list, revoking one and all, the
key's replacement and a password change ending them, and a revoked session's stream."""

from __future__ import annotations

import dataclasses
import time

import pytest
from argon2 import PasswordHasher

from application.accounts import auth
from store import keys
from store.accounts.records import AccountStore
from tests.api.helpers import bearer, own_address
from tests.api.test_accounts import error_code, fresh_name, sign_up
from tests.api.test_key_replacement import LOADED_MACHINE_S, Held, _lines, _listening, _wait_until

PASSWORD = "correct horse battery"
BROWSER = {"User-Agent": "TestBrowser/1.0"}


@pytest.fixture
def client(client):
    """A client of an address of its own: the attempts' limits count per address."""
    client.environ_base.update(own_address(7))
    return client


@pytest.fixture
def attempts_at(app):
    """Hold the attempts' fixed windows at one instant (a test straddling a window's end
    would be counted in two)."""
    instant = 1_800_000_000.0
    app.extensions["keltis_accounts"].sessions.attempt_clock = lambda: instant
    return instant


def with_password(client) -> dict:
    return sign_up(client, password=PASSWORD)


def sign_in(client, name: str, password: str = PASSWORD, headers: dict | None = None):
    return client.post("/v1/sessions", json={"name": name, "password": password}, headers=headers)


def signed_in(client, name: str, headers: dict | None = None) -> dict:
    answer = sign_in(client, name, headers=headers)
    assert answer.status_code == 201, answer.json
    return answer.json


def test_sign_in_with_name_and_password_gives_a_session_that_acts_as_the_account(client):
    account = with_password(client)
    new = signed_in(client, account["name"].upper(), headers=BROWSER)  # any case of the name
    assert new["name"] == account["name"]
    assert new["token"].startswith("ks_") and new["session"]["current"] is True
    assert new["session"]["user_agent"] == "TestBrowser/1.0"
    me = client.get("/v1/me", headers=bearer(new["token"]))
    assert me.status_code == 200
    assert me.json["name"] == account["name"] and me.json["has_password"] is True
    game = {"game": "keltis-card", "players": [{"account": account["name"]}, {"bot": "greedy"}]}
    made = client.post("/v1/games", json=game, headers=bearer(new["token"]))
    assert made.status_code == 201, made.json  # a session seats its account, as the key does


def test_only_the_session_tokens_hash_is_stored(client, redis_client):
    account = with_password(client)
    new = signed_in(client, account["name"])
    raw = b"".join(
        k + v
        for k, v in redis_client.hgetall(
            f"keltis:account:{{a:{account['name'].lower()}}}:sessions"
        ).items()
    )
    assert new["token"].encode() not in raw
    assert auth.key_digest(new["token"]).encode() in raw
    record = redis_client.hget(
        f"keltis:account:{{a:{account['name'].lower()}}}:record", "password_hash"
    )
    assert record.startswith(b"$argon2id$") and PASSWORD.encode() not in record


def test_a_wrong_password_and_an_unknown_name_get_the_same_answer(client, attempts_at):
    account = with_password(client)
    without = sign_up(client)  # an account without a password answers alike
    answers = [
        sign_in(client, account["name"], "not the password at all"),
        sign_in(client, fresh_name("nobody"), PASSWORD),
        sign_in(client, without["name"], PASSWORD),
    ]
    assert {a.status_code for a in answers} == {401}
    assert {(a.json["error"]["code"], a.json["error"]["message"]) for a in answers} == {
        ("sign_in_failed", "the name or the password is wrong")
    }


def test_an_unknown_name_is_verified_against_a_dummy_hash_as_a_known_one_is(
    client, attempts_at, monkeypatch
):
    account = with_password(client)
    verified = []
    real = PasswordHasher.verify
    monkeypatch.setattr(
        PasswordHasher, "verify", lambda self, h, p: verified.append(h) or real(self, h, p)
    )
    sign_in(client, account["name"], "not the password at all")
    sign_in(client, fresh_name("nobody"), "not the password at all")
    assert len(verified) == 2  # one argon2id verification each: the same work, the same time
    assert all(h.startswith("$argon2id$") for h in verified)


def test_sign_in_attempts_per_name_and_address_are_limited_with_retry_after(
    app, client, attempts_at
):
    account = with_password(client)
    for _ in range(5):
        assert sign_in(client, account["name"], "a wrong password").status_code == 401
    refused = sign_in(client, account["name"])  # the right password too, once over
    assert refused.status_code == 429
    assert error_code(refused) == "sign_in_limited"
    assert set(refused.json["error"]) == {"code", "message", "rule"}
    assert 0 < int(refused.headers["Retry-After"]) <= 15 * 60
    other = app.test_client()
    other.environ_base.update(own_address(8))  # another address is not limited by it
    assert sign_in(other, account["name"]).status_code == 201


def test_sign_in_attempts_per_address_are_limited_whatever_the_name(
    client, attempts_at, monkeypatch
):
    monkeypatch.setenv("KELTIS_SIGN_IN_LIMIT_ADDRESS", "3 per hour")
    for _ in range(3):
        assert sign_in(client, fresh_name("guess")).status_code == 401
    refused = sign_in(client, fresh_name("guess"))
    assert refused.status_code == 429 and error_code(refused) == "sign_in_limited"
    assert 0 < int(refused.headers["Retry-After"]) <= 3600


@pytest.mark.parametrize(
    "password",
    ["short pw", "x" * 201, "NAME"],
    ids=["under 10 characters", "over 200 characters", "the account's name"],
)
def test_a_weak_password_is_refused_at_sign_up(client, password):
    name = fresh_name("weak")
    body = {"name": name, "password": name.upper() if password == "NAME" else password}
    answer = client.post("/v1/accounts", json=body)
    assert answer.status_code == 422 and error_code(answer) == "weak_password"


def test_the_key_sets_a_password_and_every_session_ends(client):
    account = sign_up(client)
    assert sign_in(client, account["name"]).status_code == 401
    key = bearer(account["key"])
    set_ = client.put("/v1/me/password", json={"password": PASSWORD}, headers=key)
    assert set_.status_code == 200 and set_.json["session"] is None
    first = signed_in(client, account["name"])
    again = client.put("/v1/me/password", json={"password": "another good one"}, headers=key)
    assert again.json["sessions_ended"] == 1
    assert client.get("/v1/me", headers=bearer(first["token"])).status_code == 401
    assert sign_in(client, account["name"], "another good one").status_code == 201


def test_a_session_changes_the_password_only_with_the_current_one_and_stays_signed_in(client):
    account = with_password(client)
    mine, other = signed_in(client, account["name"]), signed_in(client, account["name"])
    token = bearer(mine["token"])
    body = {"password": "a brand new password"}
    refused = client.put("/v1/me/password", json=body, headers=token)
    assert refused.status_code == 403 and error_code(refused) == "password_required"
    wrong = client.put("/v1/me/password", json={**body, "current_password": "nope"}, headers=token)
    assert wrong.status_code == 403
    done = client.put("/v1/me/password", json={**body, "current_password": PASSWORD}, headers=token)
    assert done.status_code == 200 and done.json["sessions_ended"] == 2
    fresh = done.json["session"]["token"]
    assert client.get("/v1/me", headers=bearer(fresh)).status_code == 200
    for ended in (mine, other):
        assert client.get("/v1/me", headers=bearer(ended["token"])).status_code == 401


def test_sessions_are_listed_without_secrets_and_the_current_one_is_marked(client):
    account = with_password(client)
    first = signed_in(client, account["name"], headers=BROWSER)
    second = signed_in(client, account["name"])
    listed = client.get("/v1/me/sessions", headers=bearer(second["token"])).json["sessions"]
    assert [s["id"] for s in listed] == [first["session"]["id"], second["session"]["id"]]
    assert [s["current"] for s in listed] == [False, True]
    assert listed[0]["user_agent"] == "TestBrowser/1.0"
    assert not any(first["token"] in str(s) or "hash" in str(s) for s in listed)
    by_key = client.get("/v1/me/sessions", headers=bearer(account["key"])).json["sessions"]
    assert [s["current"] for s in by_key] == [False, False]


def test_one_session_is_revoked_and_the_others_go_on(client):
    account = with_password(client)
    first, second = signed_in(client, account["name"]), signed_in(client, account["name"])
    gone = client.delete(
        f"/v1/me/sessions/{first['session']['id']}", headers=bearer(second["token"])
    )
    assert gone.status_code == 204
    assert client.get("/v1/me", headers=bearer(first["token"])).status_code == 401
    assert client.get("/v1/me", headers=bearer(second["token"])).status_code == 200
    again = client.delete(
        f"/v1/me/sessions/{first['session']['id']}", headers=bearer(second["token"])
    )
    assert again.status_code == 404 and error_code(again) == "session_not_found"


def test_sign_out_everywhere_ends_every_session_the_callers_too_and_keeps_the_key(client):
    account = with_password(client)
    first, second = signed_in(client, account["name"]), signed_in(client, account["name"])
    ended = client.delete("/v1/me/sessions", headers=bearer(second["token"]))
    assert ended.status_code == 200 and ended.json == {"ended": 2}
    for one in (first, second):
        answer = client.get("/v1/me", headers=bearer(one["token"]))
        assert answer.status_code == 401 and error_code(answer) == "unauthenticated"
    assert client.get("/v1/me", headers=bearer(account["key"])).status_code == 200


def test_replacing_the_key_ends_every_session_and_a_session_needs_the_password_for_it(client):
    account = with_password(client)
    first, second = signed_in(client, account["name"]), signed_in(client, account["name"])
    refused = client.post("/v1/me/key", headers=bearer(first["token"]))
    assert refused.status_code == 403 and error_code(refused) == "password_required"
    rotated = client.post("/v1/me/key", json={"password": PASSWORD}, headers=bearer(first["token"]))
    assert rotated.status_code == 200 and rotated.json["key"] != account["key"]
    for one in (first, second):
        assert client.get("/v1/me", headers=bearer(one["token"])).status_code == 401
    assert client.get("/v1/me", headers=bearer(account["key"])).status_code == 401
    assert client.get("/v1/me", headers=bearer(rotated.json["key"])).status_code == 200
    third = signed_in(client, account["name"])
    assert client.post("/v1/me/key", headers=bearer(rotated.json["key"])).status_code == 200
    assert client.get("/v1/me", headers=bearer(third["token"])).status_code == 401


def test_a_session_changes_the_webhook_only_with_the_password(client):
    account = with_password(client)
    token = bearer(signed_in(client, account["name"])["token"])
    hook = {"webhook": "http://127.0.0.1:9/turns"}
    refused = client.patch("/v1/me", json=hook, headers=token)
    assert refused.status_code == 403 and error_code(refused) == "password_required"
    done = client.patch("/v1/me", json={**hook, "password": PASSWORD}, headers=token)
    assert done.status_code == 200 and done.json["webhook"] == hook["webhook"]
    other = client.patch("/v1/me", json={"accepts_challenges": "rated"}, headers=token)
    assert other.status_code == 200  # what is not the webhook needs no password


def test_a_session_unused_longer_than_its_lifetime_ends(app, client, redis_client):
    account = with_password(client)
    new = signed_in(client, account["name"])
    store = AccountStore(redis_client)
    folded = account["name"].lower()
    session = store.sessions.get(folded, auth.key_digest(new["token"]))
    idle_ms = auth.session_idle_ms()
    store.sessions.touch(
        folded,
        dataclasses.replace(session, last_used_at=session.last_used_at - idle_ms - 1),
        idle_ms,
    )
    answer = client.get("/v1/me", headers=bearer(new["token"]))
    assert answer.status_code == 401
    assert client.get("/v1/me/sessions", headers=bearer(account["key"])).json["sessions"] == []


@pytest.fixture
def long_streams(app):
    app.config.update(STREAM_KEEPALIVE_S=30.0, STREAM_MAX_S=20.0)
    return app


def test_a_revoked_sessions_stream_ends(long_streams, client):
    app = long_streams
    account = with_password(client)
    new = signed_in(client, account["name"])
    held = Held(app, "/v1/me/events", bearer(new["token"]))
    _wait_until(lambda: _listening(app, keys.account_channel(account["name"].lower())))
    revoked_at = time.monotonic()
    gone = client.delete(f"/v1/me/sessions/{new['session']['id']}", headers=bearer(account["key"]))
    assert gone.status_code == 204
    response, body, ended = held.result()
    assert response.status_code == 200
    assert ended - revoked_at < LOADED_MACHINE_S
    assert all(line.get("type") != "your_turn" for line in _lines(body))


def test_a_null_password_at_sign_up_is_refused_not_taken_for_none(client):
    answer = client.post("/v1/accounts", json={"name": fresh_name(), "password": None})
    assert answer.status_code == 422 and error_code(answer) == "invalid_request"


def test_replacing_the_key_checks_its_body_with_the_key_too(client):
    account = sign_up(client)
    too_long = client.post(
        "/v1/me/key", json={"password": "x" * 1001}, headers=bearer(account["key"])
    )
    assert too_long.status_code == 422
    assert client.get("/v1/me", headers=bearer(account["key"])).status_code == 200  # kept
