"""The /v1/arenas endpoints (checked against openapi.yaml by the contract client): only the
operator opens and closes arenas, bot accounts join and leave, the stream's lines."""

from __future__ import annotations

import json

import pytest

from api import create_app
from application.arenas.worker_pass import ArenaPass
from application.games.service import GameService
from store.arenas.records import ArenaStore
from store.core.clock import now_ms
from tests.api.contract import ContractClient
from tests.arenas.helpers import move_for

pytestmark = pytest.mark.redis

OPERATOR = "op-test-token-0123456789"


@pytest.fixture
def client(redis_url, cluster_store, monkeypatch):
    monkeypatch.setenv("KELTIS_OPERATOR_TOKEN", OPERATOR)
    app = create_app(
        {
            "REDIS_URL": cluster_store or redis_url,
            "TESTING": True,
            "STREAM_MAX_S": 1.0,
            "STREAM_KEEPALIVE_S": 0.2,
        }
    )
    app.test_client_class = ContractClient
    return app.test_client()


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def body(minutes: int = 60) -> dict:
    return {
        "name": "bot arena",
        "game": "keltis-card",
        "players": 2,
        "clock": {"move_seconds": 5},
        "ends_at": now_ms() + minutes * 60_000,
    }


def sign_up(client, name: str, bot: bool = True) -> str:
    made = client.post("/v1/accounts", json={"name": name, "bot": bot})
    assert made.status_code == 201, made.json
    return made.json["key"]


def test_only_the_operator_opens_or_closes_an_arena(client, monkeypatch):
    refused = client.post("/v1/arenas", json=body())
    assert refused.status_code == 403 and refused.json["error"]["code"] == "operator_only"
    wrong = client.post("/v1/arenas", json=body(), headers=bearer("not-the-operator"))
    assert wrong.status_code == 403
    opened = client.post("/v1/arenas", json=body(), headers=bearer(OPERATOR))
    assert opened.status_code == 201, opened.json
    aid = opened.json["id"]
    assert opened.json["status"] == "running" and opened.json["leaderboard"] == []
    assert client.post(f"/v1/arenas/{aid}/close").status_code == 403
    monkeypatch.delenv("KELTIS_OPERATOR_TOKEN")  # no operator set: nobody may
    refused = client.post("/v1/arenas", json=body(), headers=bearer(OPERATOR))
    assert refused.status_code == 403 and refused.json["error"]["code"] == "operator_only"
    monkeypatch.setenv("KELTIS_OPERATOR_TOKEN", OPERATOR)
    closed = client.post(f"/v1/arenas/{aid}/close", headers=bearer(OPERATOR))
    assert closed.status_code == 200 and closed.json["status"] == "finishing"
    listed = client.get("/v1/arenas").json["arenas"]
    assert aid in [a["id"] for a in listed]
    bad = client.post("/v1/arenas", json={**body(), "ends_at": 1}, headers=bearer(OPERATOR))
    assert bad.status_code == 422 and bad.json["error"]["code"] == "invalid_arena"
    assert client.get("/v1/arenas/nosucharena").status_code == 404


@pytest.mark.cluster_too
def test_bot_accounts_join_and_leave_people_do_not(client):
    aid = client.post("/v1/arenas", json=body(), headers=bearer(OPERATOR)).json["id"]
    person = sign_up(client, f"pp{now_ms() % 10**9}", bot=False)
    refused = client.post(f"/v1/arenas/{aid}/join", headers=bearer(person))
    assert refused.status_code == 403 and refused.json["error"]["code"] == "bot_account_only"
    assert client.post(f"/v1/arenas/{aid}/join").status_code == 401
    key = sign_up(client, f"bb{now_ms() % 10**9}")
    joined = client.post(f"/v1/arenas/{aid}/join", headers=bearer(key))
    assert joined.status_code == 200 and joined.json["state"] == "waiting"
    left = client.post(f"/v1/arenas/{aid}/leave", headers=bearer(key))
    assert left.status_code == 200 and left.json["state"] == "left"


def test_the_stream_sends_the_leaderboard_then_a_line_per_finished_game(client, redis_url):
    import redis

    aid = client.post("/v1/arenas", json=body(), headers=bearer(OPERATOR)).json["id"]
    keys = [sign_up(client, f"st{n}x{now_ms() % 10**9}") for n in range(2)]
    for key in keys:
        assert client.post(f"/v1/arenas/{aid}/join", headers=bearer(key)).status_code == 200
    redis_client = redis.Redis.from_url(redis_url)
    service = GameService(redis_client)
    store = ArenaStore(redis_client)
    passes = ArenaPass(service, store)
    passes.run_arena(aid)
    ((game_id, plan),) = store.state(aid).running.items()
    arena = client.get(f"/v1/arenas/{aid}").json
    assert {row["state"] for row in arena["leaderboard"]} == {"playing"}
    move_for(service, game_id, set(plan["accounts"]))
    passes.run_arena(aid)  # recorded; the two are paired again
    client.post(f"/v1/arenas/{aid}/close", headers=bearer(OPERATOR))
    streamed = client.get(f"/v1/arenas/{aid}/stream")
    assert streamed.status_code == 200
    lines = [json.loads(raw) for raw in streamed.data.splitlines() if raw.strip()]
    assert [line["type"] for line in lines[:3]] == ["leaderboard", "game_finished", "leaderboard"]
    finished = lines[1]
    assert finished["game"] == game_id and finished["position"] == 1
    assert sorted(finished["players"]) == sorted(plan["names"])
    board = {row["account"]: row for row in lines[2]["leaderboard"]}
    assert sum(row["games"] for row in board.values()) == 2
    assert sum(row["points"] for row in board.values()) == len(finished["winners"])
    again = client.get(f"/v1/arenas/{aid}/stream?after=1").data.splitlines()
    assert [json.loads(r)["type"] for r in again if r.strip()] == ["leaderboard"]
    redis_client.close()


def test_the_export_takes_one_arenas_finished_games_newest_first(client, redis_url):
    import redis

    aid = client.post("/v1/arenas", json=body(), headers=bearer(OPERATOR)).json["id"]
    keys = [sign_up(client, f"ex{n}x{now_ms() % 10**9}") for n in range(2)]
    for key in keys:
        client.post(f"/v1/arenas/{aid}/join", headers=bearer(key))
    redis_client = redis.Redis.from_url(redis_url)
    service, store = GameService(redis_client), ArenaStore(redis_client)
    passes = ArenaPass(service, store)
    finished = []
    for _ in range(3):
        passes.run_arena(aid)
        ((game_id, plan),) = store.state(aid).running.items()
        move_for(service, game_id, set(plan["accounts"]))
        finished.append(game_id)
    passes.run_arena(aid)  # a 4th game in play: not exported
    exported = client.get(f"/v1/games/export?arena={aid}")
    assert exported.status_code == 200
    lines = [json.loads(raw) for raw in exported.data.splitlines() if raw.strip()]
    assert [line["replay"]["header"]["game_id"] for line in lines[:-1]] == finished[::-1]
    assert lines[-1] == {"end": True, "exported": 3, "next_cursor": None}
    page = client.get(f"/v1/games/export?arena={aid}&limit=1").data.splitlines()
    cursor = json.loads(page[-1])["next_cursor"]
    rest = client.get(f"/v1/games/export?arena={aid}&cursor={cursor}").data.splitlines()
    assert [json.loads(r)["replay"]["header"]["game_id"] for r in rest[:-1]] == finished[1::-1]
    assert client.get("/v1/games/export?arena=nosucharena").status_code == 404
    redis_client.close()
