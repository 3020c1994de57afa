"""A rating moves only by a game a player agreed to: a tournament of built-in bots alone is
unrated (`"rated": true` for it is 422 rated_needs_account, as POST /v1/games), and an
arena never seats its built-in bots at a table without a bot account."""

from __future__ import annotations

import random

import pytest

from application.arenas.service import BOT_PREFIX
from application.arenas.worker_pass import tables
from store.ladder.records import LadderStore

BODY = {"game": "keltis-card", "bots": ["greedy", "random"], "games": 2, "seed": "consent"}


@pytest.mark.redis
def test_a_tournament_of_built_in_bots_alone_is_not_rated(
    client, redis_client, run_queued_jobs, drained_tournament_queue
):
    refused = client.post("/v1/tournaments", json={**BODY, "rated": True})
    assert refused.status_code == 422, refused.json
    assert refused.json["error"]["code"] == "rated_needs_account"
    made = client.post("/v1/tournaments", json=BODY)
    assert made.status_code == 202, made.json
    run_queued_jobs()
    done = client.get(f"/v1/tournaments/{made.json['id']}").json
    assert done["status"] == "finished" and done["rated"] is False
    for game_id in done["game_ids"]:
        assert client.get(f"/v1/games/{game_id}").json["rated"] is False
    assert LadderStore(redis_client).sequence_of(done["game_ids"]) == [None, None]


@pytest.mark.redis
def test_a_two_board_tournament_of_built_in_bots_alone_files_no_ladder_entry(
    client, redis_client, run_queued_jobs, drained_tournament_queue
):
    body = {**BODY, "game": "keltis-dice", "match": "two_boards"}
    made = client.post("/v1/tournaments", json=body)
    assert made.status_code == 202, made.json
    run_queued_jobs()
    done = client.get(f"/v1/tournaments/{made.json['id']}").json
    assert done["status"] == "finished" and done["rated"] is False
    assert LadderStore(redis_client).sequence_of(done["game_ids"]) == [None, None]


def test_an_arena_seats_its_built_in_bots_only_beside_a_bot_account():
    rng = random.Random(7)
    bots = {BOT_PREFIX + "greedy": 1, BOT_PREFIX + "random": 2, BOT_PREFIX + "heuristic": 3}
    assert tables(bots, {}, 2, rng) == []
    found = tables({**bots, "anna": 4}, {}, 2, rng)
    assert len(found) == 1 and "anna" in found[0]
    found = tables({**bots, "anna": 4, "bela": 5}, {}, 2, rng)
    assert len(found) == 2 and all(any(not a.startswith(BOT_PREFIX) for a in t) for t in found)
