"""GET /moves?version=N (a cheaper move): a web process holding that version
of the game answers from its own copy, with no read of the store; any other case reads the
game and answers 409 when it is not at N. Two apps on one Redis stand for two web processes,
each with its own record cache."""

from __future__ import annotations

import pytest

from api import create_app
from tests.api.helpers import bearer, start_humans

CARD = "keltis-card"

pytestmark = pytest.mark.redis


@pytest.fixture
def other(redis_url):
    """A second web process: the same Redis, its own record cache."""
    return create_app({"REDIS_URL": redis_url, "TESTING": True}).test_client()


def moves(client, gid: str, token: str, version=None):
    path = f"/v1/games/{gid}/moves" + ("" if version is None else f"?version={version}")
    return client.get(path, headers=bearer(token))


def test_moves_at_the_games_version_are_the_moves_of_a_plain_read(client):
    gid, tokens = start_humans(client, CARD, ["ann", "bea"])
    plain = moves(client, gid, tokens[0]).json
    named = moves(client, gid, tokens[0], plain["version"])
    assert named.status_code == 200
    assert named.json == plain and plain["moves"]
    posted = client.post(
        f"/v1/games/{gid}/moves", json=plain["moves"][0], headers=bearer(tokens[0])
    )
    version = posted.json["version"]
    for seat in (0, 1):
        assert (
            moves(client, gid, tokens[seat], version).json == moves(client, gid, tokens[seat]).json
        )


def test_a_process_holding_the_version_answers_from_its_copy_without_reading(client, other):
    """The other process moves the game on; this one still holds version N, so its answer at N
    comes from its copy (a read would have found N+1). Once it reads N+1, N is a conflict."""
    gid, tokens = start_humans(client, CARD, ["ann", "bea"])
    before = moves(client, gid, tokens[0]).json  # this process now holds version N
    moved = other.post(f"/v1/games/{gid}/moves", json=before["moves"][0], headers=bearer(tokens[0]))
    assert moved.json["version"] == before["version"] + 1

    from_copy = moves(client, gid, tokens[0], before["version"])
    assert from_copy.status_code == 200
    assert from_copy.json == before

    newest = moves(client, gid, tokens[0]).json
    assert newest["version"] == before["version"] + 1 and newest["moves"] != before["moves"]
    stale = moves(client, gid, tokens[0], before["version"])
    assert stale.status_code == 409
    assert stale.json["error"]["code"] == "version_conflict"
    assert stale.json["error"]["current_version"] == newest["version"]


def test_a_process_without_the_version_reads_and_refuses_another_one(client, other):
    gid, tokens = start_humans(client, CARD, ["ann", "bea"])
    version = moves(client, gid, tokens[0]).json["version"]
    ahead = moves(other, gid, tokens[0], version + 3)
    assert ahead.status_code == 409
    error = ahead.json["error"]
    assert error["current_version"] == version and "ahead" in error["message"]
    assert moves(other, gid, tokens[0], version).json == moves(client, gid, tokens[0]).json


def test_R2_a_forged_or_foreign_token_is_refused_as_by_a_plain_read(client):
    gid, tokens = start_humans(client, CARD, ["ann", "bea"])
    other_gid, other_tokens = start_humans(client, CARD, ["cid", "dan"])
    version = moves(client, gid, tokens[0]).json["version"]  # held by this process
    forged = tokens[1][:-4] + ("AAAA" if not tokens[1].endswith("AAAA") else "BBBB")
    for token in (forged, "not-a-token"):
        plain, named = moves(client, gid, token), moves(client, gid, token, version)
        assert (named.status_code, named.json["error"]["code"]) == (401, "unauthenticated")
        assert named.json == plain.json
    foreign = moves(client, gid, other_tokens[0], version)
    assert (foreign.status_code, foreign.json["error"]["code"]) == (403, "token_of_another_game")
    assert foreign.json == moves(client, gid, other_tokens[0]).json
    assert moves(client, other_gid, other_tokens[0]).status_code == 200


@pytest.mark.parametrize("value", ["abc", "-1", "1.5", "", "١٢", "1" * 16, "1&version=1"])
def test_a_version_that_is_not_one_is_400(client, value):
    gid, tokens = start_humans(client, CARD, ["ann", "bea"])
    answer = client.get(f"/v1/games/{gid}/moves?version={value}", headers=bearer(tokens[0]))
    assert answer.status_code == 400
    assert answer.json["error"]["code"] == "invalid_version"


def test_R2_hidden_cards_of_another_seat_are_not_served_at_a_version(client):
    """R2: a seat's token gets its own moves at a version, never another seat's."""
    gid, tokens = start_humans(client, CARD, ["ann", "bea"])
    version = moves(client, gid, tokens[0]).json["version"]
    own = moves(client, gid, tokens[1], version).json
    assert own["seat"] == 1 and own["moves"] == moves(client, gid, tokens[1]).json["moves"]


def test_R2_a_spectator_naming_a_version_is_refused_before_the_version_is_compared(client):
    """R2: authenticate first; a request without a seat learns nothing of the version."""
    gid, _ = start_humans(client, CARD, ["ann", "bea"])
    for version in (0, 10**6):
        answer = client.get(f"/v1/games/{gid}/moves?version={version}")
        assert (answer.status_code, answer.json["error"]["code"]) == (401, "unauthenticated")
