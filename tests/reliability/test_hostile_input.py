"""Hostile input: whatever a client sends, the answer is a 4xx in the one error shape
{"error": {"code", "message", "rule"}} (held to openapi.yaml too), never a 5xx."""

from __future__ import annotations

import io
import json

import pytest

from api import create_app
from tests.api.contract import ContractClient

ERROR_KEYS = {"code", "message", "rule"}
CARD_GAME = '{"game": "keltis-card", "players": [{"name": "ann"}, {"name": "bea"}]}'


@pytest.fixture(scope="module")
def hostile_app(redis_url):
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, "RATELIMIT_ENABLED": False})
    app.test_client_class = ContractClient
    return app


@pytest.fixture(scope="module")
def game(hostile_app):
    created = post_raw(hostile_app.test_client(), "/v1/games", CARD_GAME).get_json()
    return created["id"], {"Authorization": f"Bearer {created['seats'][0]['token']}"}


def assert_error_shape(response, *statuses):
    assert response.status_code in statuses, response.get_data()[:300]
    body = response.get_json()
    assert set(body) == {"error"}
    assert set(body["error"]) - {"current_version"} == ERROR_KEYS
    assert isinstance(body["error"]["code"], str) and isinstance(body["error"]["message"], str)


def post_raw(client, path: str, raw: bytes | str, headers: dict | None = None):
    return client.post(path, data=raw, headers=headers or {}, content_type="application/json")


def test_oversized_bodies_get_413_in_the_error_shape(hostile_app, game):
    client = hostile_app.test_client()
    big = b'{"game": "keltis-card", "pad": "' + b"x" * 70_000 + b'"}'
    assert_error_shape(post_raw(client, "/v1/games", big), 413)
    game_id, auth = game
    assert_error_shape(post_raw(client, f"/v1/games/{game_id}/moves", big, auth), 413)


def body(first: str = '{"name": "a"}', game: str = '"keltis-card"', extra: str = "") -> str:
    """A create body (raw JSON text) with a given first seat, game and extra members."""
    return '{"game": ' + game + ', "players": [' + first + ', {"name": "b"}]' + extra + "}"


BAD_BODIES = {
    "duplicate keys": body(extra=', "game": "keltis-dice"'),
    "duplicate nested keys": body('{"name": "a", "name": "c"}'),
    "unknown field": body(extra=', "colour": 1'),
    "unknown seat field": body('{"name": "a", "admin": true}'),
    "players of wrong type": '{"game": "keltis-card", "players": {"name": "a"}}',
    "game of wrong type": body(game="7"),
    "a list": "[1, 2, 3]",
    "null": "null",
    "a string": '"keltis"',
    "truncated": '{"game": "keltis-card", "players": [',
    "invalid utf-8": b'{"game": "keltis-card\xff\xfe", "players": []}',
    "huge integer": '{"game": "keltis-card", "players": ' + "9" * 5000 + "}",
    "infinite float": body(extra=', "options": {"x": 1e999}'),
    "NaN": body(extra=', "options": NaN'),
    "deeply nested arrays": "[" * 20_000 + "]" * 20_000,
    "deeply nested objects": '{"a": ' * 6_000 + "1" + "}" * 6_000,
    "lone surrogate name": body('{"name": "\\ud800"}'),
    "NUL in a name": body('{"name": "a\\u0000b"}'),
    "bidi override name": body('{"name": "\\u202eadmin"}'),
    "name too long": body('{"name": "' + "é" * 41 + '"}'),
    "empty players": '{"game": "keltis-card", "players": []}',
    "unknown game": body(game='"\\u0000\\uffff"'),
}


@pytest.mark.parametrize("name", sorted(BAD_BODIES))
def test_bad_create_bodies_get_the_error_shape(hostile_app, name):
    response = post_raw(hostile_app.test_client(), "/v1/games", BAD_BODIES[name])
    assert_error_shape(response, 400, 413, 422)


BAD_MOVES = {
    "duplicate action": '{"action": "discard", "action": "lay"}',
    "action of wrong type": '{"action": ["discard"]}',
    "float version": '{"action": "discard", "expected_version": 1e300}',
    "negative version": '{"action": "discard", "expected_version": -1}',
    "string version": '{"action": "discard", "expected_version": "3"}',
    "huge version digits": '{"action": "discard", "expected_version": ' + "9" * 5000 + "}",
    "huge version": '{"action": "discard", "expected_version": ' + "9" * 40 + "}",
    "card of wrong type": '{"action": "discard", "card": {"colour": "blue"}}',
    "odd unicode card": '{"action": "discard", "card": "blue-\\u0667"}',
    "unknown field": '{"action": "draw", "source": "deck", "evil": true}',
    "unknown action": '{"action": "\\ud83d\\ude00"}',
}


@pytest.mark.parametrize("name", sorted(BAD_MOVES))
def test_bad_moves_get_the_error_shape_and_change_nothing(hostile_app, game, name):
    client = hostile_app.test_client()
    game_id, auth = game
    before = client.get(f"/v1/games/{game_id}").get_json()["version"]
    response = post_raw(client, f"/v1/games/{game_id}/moves", BAD_MOVES[name], auth)
    assert_error_shape(response, 400, 409, 422)
    assert client.get(f"/v1/games/{game_id}").get_json()["version"] == before


BAD_QUERIES = [
    "/v1/games?cursor=" + "9" * 15,
    "/v1/games?limit=" + "9" * 30,
    "/v1/games?cursor=-1",
    "/v1/games?status=%00",
    "/v1/games?bogus=1",
    "/v1/games/{id}/events?after=" + "9" * 30,
    "/v1/games/{id}/events?after=1e3",
    "/v1/games/{id}/events?wait=nan",
    "/v1/games/{id}/events?wait=inf",
    "/v1/games/{id}/events?limit=0",
    "/v1/games/{id}/seats/" + "9" * 30 + "/join",
]


@pytest.mark.parametrize("path", BAD_QUERIES)
def test_bad_queries_and_paths_get_the_error_shape(hostile_app, game, path):
    client = hostile_app.test_client()
    path = path.replace("{id}", game[0])
    join = path.endswith("/join")
    response = client.post(path, json={"name": "x"}) if join else client.get(path)
    assert_error_shape(response, 400, 404, 409, 422)


BAD_HEADERS = [
    {"If-Match": '"' + "9" * 5000 + '"'},
    {"If-Match": "W/"},
    {"Idempotency-Key": "é"},
    {"Idempotency-Key": "k" * 201},
    {"Authorization": "Bearer " + "x" * 500},
    {"Authorization": "Basic YWxhZGRpbjpvcGVuc2VzYW1l"},
    {"Authorization": "Bearer a.b.c.d"},
    {"Authorization": "Bearer nogame.0.secret"},
]


@pytest.mark.parametrize("index", range(len(BAD_HEADERS)))
def test_bad_headers_get_the_error_shape(hostile_app, game, index):
    client = hostile_app.test_client()
    game_id, auth = game
    headers = {**auth, **BAD_HEADERS[index]}
    response = client.post(
        f"/v1/games/{game_id}/moves", json={"action": "draw", "source": "deck"}, headers=headers
    )
    assert_error_shape(response, 401, 403, 409, 422)


# ----- inputs that answered 500 -------------------------------------


def test_a_non_ascii_seat_digit_in_a_token_is_a_401(hostile_app, game):
    client = hostile_app.test_client()
    game_id, _ = game
    for token in ("x.\u00b2.y", f"{game_id}.\u00b2.secret", f"{game_id}.\u0661.secret"):
        auth = {"Authorization": f"Bearer {token}".encode().decode("latin-1")}
        assert_error_shape(client.get(f"/v1/games/{game_id}/moves", headers=auth), 401, 403)


def test_an_unknown_key_holding_a_lone_surrogate_is_a_422(hostile_app):
    client = hostile_app.test_client()
    for raw in (body(extra=', "\\ud800": 1'), body('{"name": "a", "\\udfff": true}')):
        response = post_raw(client, "/v1/games", raw)
        assert_error_shape(response, 422)


def test_a_lone_surrogate_in_a_moves_free_fields_is_a_422(hostile_app, game):
    game_id, auth = game
    raw = '{"action": "discard", "card": "\\ud800"}'
    assert_error_shape(
        post_raw(hostile_app.test_client(), f"/v1/games/{game_id}/moves", raw, auth), 422
    )


TOURNAMENT = '{"game": "keltis-card", "bots": ["greedy", "random"], "games": 1'


@pytest.mark.parametrize(
    "extra",
    [', "seed": "\\ud800"', ', "options": {"\\ud800": 1}', ', "seed": "a\\udc00b"'],
)
def test_a_tournament_with_a_lone_surrogate_is_refused_before_it_exists(hostile_app, extra):
    client = hostile_app.test_client()
    assert_error_shape(post_raw(client, "/v1/tournaments", TOURNAMENT + extra + "}"), 422)


def test_a_surrogate_pair_is_text_not_a_lone_surrogate(hostile_app):
    created = post_raw(hostile_app.test_client(), "/v1/games", body('{"name": "\\ud83c\\udf40"}'))
    assert created.status_code == 201
    assert created.get_json()["players"][0]["name"] == "\U0001f340"


# ----- item 5: a body over the limit, however framed ----------------------------------


def chunked(client, path: str, raw: bytes, headers: dict | None = None):
    """A body without Content-Length, as a server passes on `Transfer-Encoding: chunked`."""
    return client.post(
        path,
        input_stream=io.BytesIO(raw),
        content_type="application/json",
        headers={"Transfer-Encoding": "chunked", **(headers or {})},
        environ_overrides={"wsgi.input_terminated": True},
    )


def test_a_chunked_body_over_64_kib_is_a_413_not_cut(hostile_app, game):
    client = hostile_app.test_client()
    padded = '{"game": "keltis-card", "players": [{"name": "a"}, {"name": "b"}]' + " " * 200_000
    response = chunked(client, "/v1/games", (padded + "}").encode())
    assert_error_shape(response, 413)
    game_id, auth = game
    move = b'{"action": "draw", "source": "deck"' + b" " * 70_000 + b"}"
    assert_error_shape(chunked(client, f"/v1/games/{game_id}/moves", move, auth), 413)


def test_a_chunked_body_under_the_limit_is_read_whole(hostile_app):
    raw = CARD_GAME.encode() + b" " * (64 * 1024 - len(CARD_GAME))
    assert len(raw) == 64 * 1024
    assert chunked(hostile_app.test_client(), "/v1/games", raw).status_code == 201


# ----- item 7: only JSON bodies; names with something to show -------------------------


@pytest.mark.parametrize(
    "content_type",
    [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"],
)
def test_a_body_that_is_not_declared_json_is_a_415(hostile_app, game, content_type):
    client = hostile_app.test_client()
    headers = {} if content_type is None else {"Content-Type": content_type}
    assert_error_shape(client.post("/v1/games", data=CARD_GAME, headers=headers), 415)
    game_id, auth = game
    move = client.post(
        f"/v1/games/{game_id}/moves", data='{"action": "draw"}', headers={**auth, **headers}
    )
    assert_error_shape(move, 415)


@pytest.mark.parametrize("name", [" ", "\u3000", " \u00a0 ", "\u2003\u2009"])
def test_a_name_of_only_white_space_is_a_422(hostile_app, name):
    raw = body('{"name": ' + json.dumps(name) + "}")
    assert_error_shape(post_raw(hostile_app.test_client(), "/v1/games", raw), 422)


# ----- item 9: 405 names the allowed methods ------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("delete", "/v1/games", {"GET", "POST"}),
        ("put", "/v1/games/{id}/moves", {"GET", "POST"}),
        ("post", "/v1/bots", {"GET"}),
        ("patch", "/v1/tournaments", {"GET", "POST"}),
    ],
)
def test_a_405_names_the_allowed_methods(hostile_app, game, method, path, allowed):
    client = hostile_app.test_client()
    response = getattr(client, method)(path.replace("{id}", game[0]))
    assert_error_shape(response, 405)
    listed = {m.strip() for m in response.headers["Allow"].split(",")}
    assert allowed <= listed and listed <= allowed | {"HEAD", "OPTIONS"}
