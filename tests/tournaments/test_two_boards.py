"""A keltis-dice tournament whose games are two-board matches: each game
of the schedule is played on the basic board and then on the advanced board with the same
seats, its outcome adds the two scores; the games are unrated, and a match of built-in
bots alone files no ladder entry (a rated match's one entry: tests/tournaments/test_open.py)."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from store.ladder.records import LadderStore

pytestmark = pytest.mark.redis

BODY = {
    "game": "keltis-dice",
    "bots": ["greedy", "random"],
    "players_per_game": 2,
    "games": 2,
    "seed": "two-boards",
    "match": "two_boards",
}


def test_each_tournament_game_is_a_two_board_match_with_one_summed_result(
    client, redis_client, run_queued_jobs, drained_tournament_queue
):
    made = client.post("/v1/tournaments", json=BODY)
    assert made.status_code == 202, made.json
    tid = made.json["id"]
    run_queued_jobs()
    done = client.get(f"/v1/tournaments/{tid}").json
    assert done["status"] == "finished"
    outcomes = json.loads(client.get(f"/v1/tournaments/{tid}/standings.json").data)["outcomes"]
    ladder = LadderStore(redis_client)
    for index, game_id in enumerate(done["game_ids"]):
        first = client.get(f"/v1/games/{game_id}").json
        second = client.get(f"/v1/games/{game_id}-b2").json
        assert first["options"]["board"] == "basic" and second["options"]["board"] == "advanced"
        assert first["rated"] is False and second["rated"] is False
        assert [p["name"] for p in first["players"]] == [p["name"] for p in second["players"]]
        sums = [
            a + b
            for a, b in zip(first["result"]["scores"], second["result"]["scores"], strict=True)
        ]
        assert outcomes[index]["scores"] == sums
        assert ladder.sequence_of([game_id, f"{game_id}-b2"]) == [None, None]
    assert done["match"] == "two_boards" and done["rated"] is False
    assert client.post(f"/v1/tournaments/{tid}/archive").status_code == 202
    run_queued_jobs()
    archive = client.get(f"/v1/tournaments/{tid}/archive")
    names = zipfile.ZipFile(io.BytesIO(archive.data)).namelist()
    assert names == [f"{g}{b}.replay.json" for g in done["game_ids"] for b in ("", "-b2")]


@pytest.mark.parametrize(
    "change",
    [
        {"game": "keltis-card"},
        {"options": {"board": "advanced"}},
        {"format": "duplicate", "games_per_table": 2},
    ],
)
def test_a_two_board_tournament_is_refused_where_it_cannot_be_played(client, change):
    refused = client.post("/v1/tournaments", json={**BODY, **change})
    assert refused.status_code == 422, refused.json
