"""The two-board dice match, driven step by step in one process: the
second game is started once however many passes race on it, on the advanced board with the
same seats; the result adds the scores; a rated match is one ladder entry, written once."""

from __future__ import annotations

import pytest

from application.games.service import GameService
from application.tournaments import matches
from store.ladder.records import LadderStore
from tests.api.helpers import bearer
from tests.api.test_accounts import sign_up
from tests.api.test_challenges import at_once, challenge


def play_out(client, game_id: str, keys: dict[str, str]) -> dict:
    """Play a game of accounts to its end, each seat by its account's key."""
    for _ in range(3000):
        state = client.get(f"/v1/games/{game_id}").json
        if state["status"] == "finished":
            return state
        key = keys[state["players"][state["to_move"]]["account"]]
        legal = client.get(f"/v1/games/{game_id}/moves", headers=bearer(key)).json["moves"]
        moved = client.post(f"/v1/games/{game_id}/moves", json=legal[0], headers=bearer(key))
        assert moved.status_code == 200, moved.json
    raise AssertionError("the game did not end")


@pytest.mark.cluster_too
def test_a_two_board_match_starts_its_second_game_once_and_adds_the_scores(client, redis_client):
    service = GameService(redis_client)
    ann, bea = sign_up(client, bot=True), sign_up(client, bot=True)
    keys = {ann["name"]: ann["key"], bea["name"]: bea["key"]}
    made = challenge(
        client,
        ann["key"],
        [{"account": bea["name"]}],
        game="keltis-dice",
        match="two_boards",
        rated=True,
    )
    accepted = client.post(f"/v1/challenges/{made['id']}/accept", headers=bearer(bea["key"])).json
    match_id = accepted["match_id"]
    assert accepted["status"] == "accepted" and match_id
    assert not matches.advance(service, match_id)  # the first game is in play
    first = play_out(client, accepted["game_id"], keys)
    assert first["rated"] is False
    changed = at_once([lambda: matches.advance(GameService(redis_client), match_id)] * 3)
    assert any(changed)
    shown = client.get(f"/v1/matches/{match_id}").json
    assert [g["board"] for g in shown["games"]] == ["basic", "advanced"]
    assert shown["status"] == "running" and shown["scores"] is None
    second_id = shown["games"][1]["id"]
    second = client.get(f"/v1/games/{second_id}").json
    assert second["options"]["board"] == "advanced" and second["rated"] is False
    assert [p["name"] for p in second["players"]] == [p["name"] for p in first["players"]]
    second = play_out(client, second_id, keys)
    assert matches.advance(service, match_id)
    assert not matches.advance(service, match_id)  # written once
    shown = client.get(f"/v1/matches/{match_id}").json
    sums = [
        a + b for a, b in zip(first["result"]["scores"], second["result"]["scores"], strict=True)
    ]
    assert shown["status"] == "finished" and shown["scores"] == sums
    assert shown["winners"] == [s for s, total in enumerate(sums) if total == max(sums)]
    entries = [e for e in LadderStore(redis_client).entries() if e.game_id == match_id]
    assert len(entries) == 1 and [s.score for s in entries[0].seats] == sums
    assert [s.name for s in entries[0].seats] == [p["name"] for p in first["players"]]


def test_the_two_board_match_is_a_dice_format_that_plays_both_boards(client):
    ann, bea = sign_up(client), sign_up(client)
    body = {"opponents": [{"account": bea["name"]}], "match": "two_boards"}
    card = client.post(
        "/v1/challenges", json={**body, "game": "keltis-card"}, headers=bearer(ann["key"])
    )
    assert card.status_code == 422
    board = client.post(
        "/v1/challenges",
        json={**body, "game": "keltis-dice", "options": {"board": "advanced"}},
        headers=bearer(ann["key"]),
    )
    assert board.status_code == 422
    assert client.get("/v1/matches/m-nothing").status_code == 404
