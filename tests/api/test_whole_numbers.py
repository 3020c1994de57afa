"""An integer field takes a JSON integer only: a version, a count or a number of seconds
written `5.0`, `2.0` or `1e2` (numbers the JSON parser reads as floats; `1e2` was read as
100) is 422 `invalid_request` in the one error shape, on every body that holds one, by the
move's hot path (api.games.move_body) as by the general one."""

from __future__ import annotations

import pytest

from tests.api.helpers import bearer
from tests.api.test_accounts import error_code, sign_up

JSON = "application/json"


def post_raw(client, path: str, body: str, headers: dict | None = None):
    """POST `body` as written (a float literal stays a float literal)."""
    return client.post(path, data=body, content_type=JSON, headers=headers or {})


def assert_refused(answer) -> None:
    assert answer.status_code == 422, answer.get_data(as_text=True)
    assert error_code(answer) == "invalid_request"
    assert set(answer.json) == {"error"} and isinstance(answer.json["error"]["message"], str)


@pytest.fixture
def seated(client):
    """A card game of two names and seat 0's game token."""
    players = [{"name": "ann"}, {"name": "bea"}]
    made = client.post("/v1/games", json={"game": "keltis-card", "players": players}).json
    token = next(seat["token"] for seat in made["seats"] if seat["seat"] == 0)
    return made["id"], made["version"], token


@pytest.mark.parametrize("written", ["{v}.0", "{v}e0", "1e2"])
def test_a_move_with_a_float_version_is_refused(client, seated, written):
    game_id, version, token = seated
    body = '{"action": "pass", "expected_version": ' + written.format(v=version) + "}"
    assert_refused(post_raw(client, f"/v1/games/{game_id}/moves", body, bearer(token)))
    assert client.get(f"/v1/games/{game_id}").json["version"] == version  # nothing appended


def test_a_seek_with_a_float_count_is_refused(client):
    key = sign_up(client)["key"]
    body = '{"game": "keltis-dice", "max_games": 2.0}'
    assert_refused(post_raw(client, "/v1/seeks", body, bearer(key)))


def test_a_challenge_with_a_float_expiry_is_refused(client):
    ann, bea = sign_up(client), sign_up(client)
    opponent = '[{"account": "' + bea["name"] + '"}]'
    body = '{"game": "keltis-card", "opponents": ' + opponent + ', "expires_in_s": 60.0}'
    assert_refused(post_raw(client, "/v1/challenges", body, bearer(ann["key"])))


@pytest.mark.parametrize(
    "path, body",
    [
        (
            "/v1/games",
            '{"game": "keltis-card", "players": [{"name": "a"}, {"name": "b"}],'
            ' "clock": {"move_seconds": 60.0}}',
        ),
        ("/v1/tournaments", '{"game": "keltis-card", "bots": ["greedy", "random"], "games": 2.0}'),
    ],
)
def test_a_game_or_tournament_with_a_float_number_is_refused(client, path, body):
    assert_refused(post_raw(client, path, body))
