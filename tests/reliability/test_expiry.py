"""A game whose open seats are never all taken expires after a configurable time: the sweep
appends `game_expired` with the expected version; joins are then refused (409)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from application.operations.sweep import (
    DEFAULT_EXPIRY_S,
    EXPIRY_ENV,
    expire_waiting_games,
    expiry_s,
)
from store import keys

pytestmark = pytest.mark.redis

ROOT = Path(__file__).resolve().parents[2]
CARD = "keltis-card"
OPEN_GAME = {"game": CARD, "players": [{"name": "ann"}, {"open": True}]}


def create_open_game(client) -> dict:
    created = client.post("/v1/games", json=OPEN_GAME)
    assert created.status_code == 201
    return created.json


def log_types(redis_client, game_id: str) -> list[str]:
    return [json.loads(raw)["e"]["type"] for raw in redis_client.lrange(keys.log(game_id), 0, -1)]


def test_a_game_that_never_started_expires_and_refuses_joins(client, redis_client):
    game = create_open_game(client)
    started = create_open_game(client)
    joined = client.post(f"/v1/games/{started['id']}/seats/1/join", json={"name": "bo"})
    assert joined.status_code == 200
    later = int(time.time() * 1000) + 10_000
    expired = expire_waiting_games(redis_client, older_than_s=5, now_ms=later)
    assert game["id"] in expired and started["id"] not in expired
    assert log_types(redis_client, game["id"])[-1] == "game_expired"
    assert client.get(f"/v1/games/{game['id']}").json["status"] == "expired"
    shown = client.get(f"/v1/games/{game['id']}/events?after=1").json
    assert shown["status"] == "expired"
    assert [e["event"]["type"] for e in shown["events"]] == ["game_expired"]
    refused = client.post(f"/v1/games/{game['id']}/seats/1/join", json={"name": "cy"})
    assert refused.status_code == 409 and refused.json["error"]["code"] == "game_expired"
    listed = client.get("/v1/games?status=expired&limit=100").json["games"]
    assert game["id"] in [g["id"] for g in listed]
    assert game["id"] not in [
        g["id"] for g in client.get("/v1/games?status=waiting&limit=100").json["games"]
    ]
    assert expire_waiting_games(redis_client, older_than_s=5, now_ms=later) == []  # once
    assert log_types(redis_client, game["id"]).count("game_expired") == 1


def test_a_waiting_game_whose_log_is_gone_leaves_the_expiry_index(redis_client):
    redis_client.zadd(keys.games_waiting(), {"gone-game-id-0000000": 1})
    assert expire_waiting_games(redis_client, older_than_s=1) == []
    assert redis_client.zscore(keys.games_waiting(), "gone-game-id-0000000") is None


def test_a_young_waiting_game_does_not_expire(client, redis_client):
    game = create_open_game(client)
    assert game["id"] not in expire_waiting_games(redis_client, older_than_s=3600)
    assert client.get(f"/v1/games/{game['id']}").json["status"] == "waiting"


def test_the_expiry_time_is_a_day_by_default_and_set_by_environment(monkeypatch):
    monkeypatch.delenv(EXPIRY_ENV, raising=False)
    assert expiry_s() == DEFAULT_EXPIRY_S == 24 * 3600
    monkeypatch.setenv(EXPIRY_ENV, "90")
    assert expiry_s() == 90


def test_a_real_workers_sweep_expires_a_waiting_game(client, redis_client, redis_url):
    game = create_open_game(client)
    env = {**os.environ, "REDIS_URL": redis_url, EXPIRY_ENV: "0.5"}
    command = [str(Path(sys.executable).parent / "keltis"), "worker", "--sweep-every", "0.2"]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60  # the worker starting up included
        while client.get(f"/v1/games/{game['id']}").json["status"] != "expired":
            assert time.monotonic() < deadline, "the sweep never expired the game"
            time.sleep(0.1)
    finally:
        process.terminate()
        process.wait(timeout=10)
    assert log_types(redis_client, game["id"]) == ["game_created", "game_expired"]
