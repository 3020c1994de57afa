"""A 409 version_conflict says the game's current version and which way the caller's
expected_version is off, in the body and through If-Match alike; the
message of one behind the game is checked in test_games.py's stale-version test."""

from __future__ import annotations

from tests.api.helpers import bearer, start_humans


def conflict_of(response) -> dict:
    assert response.status_code == 409, response.json
    error = response.json["error"]
    assert error["code"] == "version_conflict"
    return error


def test_expected_version_ahead_of_the_game_names_both_versions(client, toy):
    gid, tokens = start_humans(client, toy, ["ann", "bea"])
    version = client.get(f"/v1/games/{gid}").json["version"]
    ahead = version + 3
    response = client.post(
        f"/v1/games/{gid}/moves",
        json={"action": "pass", "expected_version": ahead},
        headers=bearer(tokens[0]),
    )
    error = conflict_of(response)
    assert error["current_version"] == version
    assert error["message"] == (
        f"expected_version {ahead} is ahead of the game, which is at version {version}"
    )


def test_if_match_ahead_of_the_game_is_explained_the_same_way(client, toy):
    gid, tokens = start_humans(client, toy, ["ann", "bea"])
    version = client.get(f"/v1/games/{gid}").json["version"]
    response = client.post(
        f"/v1/games/{gid}/moves",
        json={"action": "pass"},
        headers={**bearer(tokens[0]), "If-Match": f'"{version + 1}"'},
    )
    error = conflict_of(response)
    assert error["message"] == (
        f"expected_version {version + 1} is ahead of the game, which is at version {version}"
    )
