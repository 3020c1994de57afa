"""A challenge's bot work is charged to its challenger (with the
CPU budgets): whoever's accept creates the game, the challenger's account pays; what does
not fit is refused (429) and the challenge stays open."""

from __future__ import annotations

import secrets

import pytest

from api import create_app
from application.budget import estimate
from domain.registry import get_rules
from store import keys
from store.budget.records import BudgetStore
from tests.api.contract import ContractClient
from tests.api.helpers import bearer

CARD = "keltis-card"


def budget_client(redis_url: str):
    app = create_app(
        {
            "REDIS_URL": redis_url,
            "TESTING": True,
            "ENQUEUE_BOTS": False,
            "BUDGET_ENABLED": True,
            "BUDGET_ACCOUNT": "300 per hour",  # under mcts:5000 seated (333 s)
        }
    )
    app.test_client_class = ContractClient
    return app.test_client()


def account(client) -> dict:
    made = client.post("/v1/accounts", json={"name": f"pay_{secrets.token_hex(5)}"})
    assert made.status_code == 201, made.json
    return made.json


def three_players(client, challenger: dict, invitee: dict, bot: str) -> dict:
    body = {"game": CARD, "opponents": [{"account": invitee["name"]}, {"bot": bot}]}
    made = client.post("/v1/challenges", json=body, headers=bearer(challenger["key"]))
    assert made.status_code == 201, made.json
    return made.json


@pytest.mark.cluster_too
def test_accepting_charges_the_challenger_and_an_overrun_leaves_the_challenge_open(
    redis_url, redis_client, cluster_store
):
    client = budget_client(cluster_store or redis_url)
    ann, bea = account(client), account(client)
    too_much = three_players(client, ann, bea, "mcts:5000")
    refused = client.post(f"/v1/challenges/{too_much['id']}/accept", headers=bearer(bea["key"]))
    assert refused.status_code == 429 and refused.json["error"]["code"] == "cpu_budget_exceeded"
    still = client.get(f"/v1/challenges/{too_much['id']}", headers=bearer(bea["key"])).json
    assert still["status"] == "open" and still["accepted_by"] == []
    fits = three_players(client, ann, bea, "mcts:200")
    accepted = client.post(f"/v1/challenges/{fits['id']}/accept", headers=bearer(bea["key"]))
    assert accepted.status_code == 200 and accepted.json["status"] == "accepted"
    record = BudgetStore(redis_client).record(keys.game_creator(accepted.json["game_id"]))
    assert record["payer"] == f"acct:{ann['name'].lower()}"
    players = [{"account": "a"}, {"account": "b"}, {"bot": "mcts:200"}]
    cost_ms = round(estimate.game_seconds(get_rules(CARD), players) * 1000)
    assert abs(int(record["charged_ms"]) - cost_ms) <= 1
