"""/v1/tournaments and /v1/games/{id}/replay over HTTP (responses held against openapi.yaml)."""

from __future__ import annotations

import csv
import io
import json
import zipfile

import pytest

from devtools.tallies import recompute_from_logs
from replays.verify import verify

pytestmark = pytest.mark.redis

BODY = {"game": "keltis-card", "bots": ["greedy", "random"], "players_per_game": 2, "games": 6}


def start(client, **changes) -> dict:
    response = client.post("/v1/tournaments", json={**BODY, "seed": "api-test", **changes})
    assert response.status_code == 202, response.json
    assert response.headers["Location"] == f"/v1/tournaments/{response.json['id']}"
    return response.json


def test_a_tournament_runs_on_the_queue_and_its_standings_match_the_games(
    client, redis_client, run_queued_jobs, drained_tournament_queue
):
    tid = start(client)["id"]
    running = client.get(f"/v1/tournaments/{tid}").json
    assert running["status"] == "running"
    assert running["progress"] == {
        "done": 0,
        "total": 6,
        "finished": 0,
        "running": 0,
        "waiting": 6,
        "cancelled": 0,
    }
    assert running["seed"] is None and running["salt"] is None  # R2: they derive the decks
    assert len(running["game_ids"]) == 6
    run_queued_jobs()
    done = client.get(f"/v1/tournaments/{tid}").json
    assert done["status"] == "finished"
    assert done["progress"] == {
        "done": 6,
        "total": 6,
        "finished": 6,
        "running": 0,
        "waiting": 0,
        "cancelled": 0,
    }
    assert done["seed"] == "api-test" and done["finished_at"] >= done["created_at"]
    totals = recompute_from_logs(redis_client, done["game_ids"], ["greedy", "random"])
    for row in done["standings"]:
        own = totals[row["bot"]]
        assert (row["games"], row["wins"], row["shared_wins"]) == (
            own["games"],
            own["wins"],
            own["shared"],
        )
        assert row["mean_score"] == pytest.approx(sum(own["scores"]) / 6, abs=1e-4)
        assert row["seat_games"] == [3, 3]


def test_R1_the_server_salts_every_tournament_and_publishes_the_salt_at_the_end(
    client, redis_client, run_queued_jobs, drained_tournament_queue
):
    from application.games.service import GameService
    from tournaments import seeds

    first = start(client, games=2, seed="same")["id"]
    second = start(client, games=2, seed="same")["id"]
    run_queued_jobs()
    service = GameService(redis_client)
    published = {}
    for tid in (first, second):
        state = client.get(f"/v1/tournaments/{tid}").json
        assert state["seed"] == "same" and len(state["salt"]) == 64
        assert state["seed_sha256"] == seeds.seed_sha256("same", state["salt"])
        for index, game_id in enumerate(state["game_ids"]):
            record, _, _ = service.load(game_id)
            assert record.seed_hex == seeds.game_seed("same", index, state["salt"]).hex()
            published[(tid, index)] = record.seed_hex
    assert published[(first, 0)] != published[(second, 0)]  # the client alone decides nothing


def test_standings_export_as_csv_and_json(client, run_queued_jobs, drained_tournament_queue):
    tid = start(client, games=4)["id"]
    run_queued_jobs()
    table = client.get(f"/v1/tournaments/{tid}/standings.csv")
    assert table.status_code == 200 and table.mimetype == "text/csv"
    assert "attachment" in table.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(table.data.decode())))
    assert [r["bot"] for r in rows] == ["greedy", "random"]
    document = client.get(f"/v1/tournaments/{tid}/standings.json")
    assert document.status_code == 200
    data = json.loads(document.data)
    assert [o["index"] for o in data["outcomes"]] == [0, 1, 2, 3]
    for row, line in zip(data["standings"], rows, strict=True):
        assert len(row["scores"]) == row["games"] == int(line["games"])
        assert int(line["wins"]) == row["wins"]


def test_R3_the_replay_archive_holds_a_verifiable_replay_per_game(
    client, run_queued_jobs, drained_tournament_queue
):
    tid = start(client, games=4)["id"]
    early = client.get(f"/v1/tournaments/{tid}/archive")
    assert early.status_code == 409 and early.json["error"]["code"] == "tournament_running"
    assert client.post(f"/v1/tournaments/{tid}/archive").status_code == 409
    run_queued_jobs()
    before = client.get(f"/v1/tournaments/{tid}/archive")
    assert before.status_code == 409 and before.json["error"]["code"] == "archive_not_ready"
    accepted = client.post(f"/v1/tournaments/{tid}/archive")
    assert accepted.status_code == 202 and accepted.json["archive"] == "queued"
    run_queued_jobs()
    assert client.get(f"/v1/tournaments/{tid}").json["archive"] == "ready"
    archive = client.get(f"/v1/tournaments/{tid}/archive")
    assert archive.status_code == 200 and archive.mimetype == "application/zip"
    game_ids = client.get(f"/v1/tournaments/{tid}").json["game_ids"]
    with zipfile.ZipFile(io.BytesIO(archive.data)) as bundle:
        assert sorted(bundle.namelist()) == sorted(f"{g}.replay.json" for g in game_ids)
        for name in bundle.namelist():
            report = verify(json.loads(bundle.read(name)))
            assert report.ok, report.message


@pytest.mark.parametrize(
    "change",
    [
        {"bots": ["greedy", "nobody"]},
        {"bots": ["greedy"]},
        {"games": 0},
        {"games": "ten"},
        {"players_per_game": 3},
        {"game": "chess"},
        {"colour": "blue"},
    ],
)
def test_bad_tournaments_are_refused_with_422(client, change):
    response = client.post("/v1/tournaments", json={**BODY, **change})
    assert response.status_code == 422
    assert response.json["error"]["code"] in ("invalid_request", "invalid_tournament")


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"format": "round_robin", "games": 2}, "games: leave it out"),
        ({"format": "duplicate", "games_per_table": 3}, "multiple of players_per_game"),
        (
            {
                "format": "duplicate",
                "players_per_game": 3,
                "bots": ["greedy"] * 3,
                "games_per_table": 4,
            },
            "multiple",
        ),
        ({"match": "two_boards"}, "keltis-dice"),
    ],
)
def test_what_the_contract_states_of_formats_and_matches_is_what_is_refused(client, change, words):
    """openapi.yaml's CreateTournament states these rules (so a schema-valid tournament is
    one the service starts); the service refuses what breaks them with 422."""
    body = {key: value for key, value in BODY.items() if key != "games"}
    body = {**body, "games": 6} if "format" not in change else body
    response = client.post("/v1/tournaments", json={**body, **change})
    assert response.status_code == 422
    assert words in response.json["error"]["message"]


def test_an_unknown_tournament_is_404(client):
    for path in ("", "/standings.csv", "/standings.json", "/archive"):
        response = client.get(f"/v1/tournaments/nope-nope-nope{path}")
        assert response.status_code == 404
        assert response.json["error"]["code"] == "tournament_not_found"


def _live_game(client) -> tuple[str, str]:
    created = client.post(
        "/v1/games",
        json={
            "game": "keltis-card",
            "players": [{"name": "ann"}, {"name": "rob", "bot": "random"}],
        },
    )
    assert created.status_code == 201
    return created.json["id"], created.json["seats"][0]["token"]


def test_R2_a_live_game_has_no_replay(client, redis_client):
    from store import keys

    game_id, token = _live_game(client)
    first = json.loads(redis_client.lindex(keys.log(game_id), 0))
    seed = first["e"]["hidden"]["seed"]
    for path in ("replay", "replay.html"):
        for headers in ({}, {"Authorization": f"Bearer {token}"}):
            response = client.get(f"/v1/games/{game_id}/{path}", headers=headers)
            assert response.status_code == 409
            assert response.json["error"]["code"] == "game_not_finished"
            assert seed not in response.data.decode()


def test_R3_a_finished_games_replay_downloads_and_verifies(
    client, run_queued_jobs, drained_tournament_queue
):
    tid = start(client, games=1)["id"]
    run_queued_jobs()
    (game_id,) = client.get(f"/v1/tournaments/{tid}").json["game_ids"]
    response = client.get(f"/v1/games/{game_id}/replay")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"] == (
        f'attachment; filename="{game_id}.replay.json"'
    )
    replay = json.loads(response.data)
    assert replay["header"]["game_id"] == game_id
    assert verify(replay).ok
    page = client.get(f"/v1/games/{game_id}/replay.html")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert game_id in page.data.decode()


def test_the_replay_of_an_unknown_game_is_404(client):
    response = client.get("/v1/games/no-such-game-0000/replay")
    assert response.status_code == 404
    assert response.json["error"]["code"] == "game_not_found"


def test_a_three_seat_dice_tournament_rotates_and_matches_its_games(
    client, redis_client, run_queued_jobs, drained_tournament_queue
):
    bots = ["greedy", "random", "random"]
    body = {"game": "keltis-dice", "bots": bots, "players_per_game": 3, "games": 6}
    tid = client.post("/v1/tournaments", json=body).json["id"]
    run_queued_jobs()
    state = client.get(f"/v1/tournaments/{tid}").json
    assert state["status"] == "finished" and state["block_size"] == 3
    labels = ["greedy", "random#1", "random#2"]
    assert [row["bot"] for row in state["standings"]] == labels
    assert [row["seat_games"] for row in state["standings"]] == [[2, 2, 2]] * 3
    totals = recompute_from_logs(redis_client, state["game_ids"], labels)
    for row in state["standings"]:
        own = totals[row["bot"]]
        assert (row["wins"], row["shared_wins"]) == (own["wins"], own["shared"])
    replay = client.get(f"/v1/games/{state['game_ids'][0]}/replay")
    assert verify(json.loads(replay.data)).ok


def test_W2_a_dice_tournament_plays_every_game_on_the_advanced_board(
    client, run_queued_jobs, drained_tournament_queue
):
    tid = start(
        client, game="keltis-dice", games=2, options={"board": "advanced"}, seed="advanced"
    )["id"]
    assert client.get(f"/v1/tournaments/{tid}").json["options"] == {"board": "advanced"}
    run_queued_jobs()
    done = client.get(f"/v1/tournaments/{tid}").json
    assert done["status"] == "finished"
    for game_id in done["game_ids"]:
        assert client.get(f"/v1/games/{game_id}").json["options"] == {"board": "advanced"}


def test_tournament_options_are_checked_by_the_games_rules(client):
    refused = client.post(
        "/v1/tournaments", json={**BODY, "game": "keltis-dice", "options": {"board": "round"}}
    )
    assert refused.status_code == 422
    assert refused.json["error"]["code"] == "invalid_tournament"
    unknown = client.post("/v1/tournaments", json={**BODY, "options": {"board": "advanced"}})
    assert unknown.status_code == 422
