"""The search bot's names over HTTP: listed, seatable with a budget, and a clock's fallback
only when reproducible."""

from __future__ import annotations

import pytest

CARD = "keltis-card"


def test_mcts_is_listed_for_both_games(client):
    games = {g["game"]: g["bots"] for g in client.get("/v1/bots").json["games"]}
    assert "mcts" in games[CARD] and "mcts" in games["keltis-dice"]


@pytest.mark.parametrize("bot", ["mcts", "mcts:10", "mcts:5000", "mcts:i200"])
def test_a_budget_in_the_bot_name_is_accepted(client, bot):
    players = [{"name": "ann"}, {"bot": bot}]
    response = client.post("/v1/games", json={"game": CARD, "players": players})
    assert response.status_code == 201, response.json


@pytest.mark.parametrize("bot", ["mcts:9", "mcts:5001", "mcts:i0", "mcts:fast"])
def test_a_budget_out_of_range_is_refused(client, bot):
    players = [{"name": "ann"}, {"bot": bot}]
    response = client.post("/v1/games", json={"game": CARD, "players": players})
    assert response.status_code in (400, 422)
    assert "unknown bot" in response.json["error"]["message"]


def test_a_clock_falls_back_on_a_reproducible_bot_only(client):
    clock = {"move_seconds": 10, "bank_seconds": 0, "fallback": "mcts", "max_timeouts": 2}
    body = {"game": CARD, "players": [{"name": "ann"}, {"name": "bob"}], "clock": clock}
    refused = client.post("/v1/games", json=body)
    assert refused.status_code in (400, 422)
    assert "reproducible" in refused.json["error"]["message"]
    body["clock"] = {**clock, "fallback": "mcts:i20"}
    assert client.post("/v1/games", json=body).status_code == 201
