"""Bot CPU budgets: a request's bot work is estimated up front and charged
to its client address (no account key) or its account, refused beyond what is left with 429
`cpu_budget_exceeded` saying how much is left; a cancel gives back what was not used."""

from __future__ import annotations

import json
import math
import secrets

import pytest

from application.budget import estimate
from domain.registry import get_rules
from store import keys
from tests.api import helpers
from tests.api.contract import contract_app

pytestmark = pytest.mark.redis

CARD = "keltis-card"
ATTACK = {
    "game": CARD,
    "bots": ["mcts:5000"] * 4,
    "games": 10_000,
    "concurrency": 64,
}


def budget_app(redis_url: str, **config):
    return contract_app(
        redis_url,
        **{
            "BUDGET_ENABLED": True,
            "BUDGET_ANON": "100 per hour",
            "BUDGET_ACCOUNT": "1000 per hour",
            **config,
        },
    )


def own_address() -> dict:
    """A client address of its own (anonymous budgets are per remote address)."""
    return helpers.own_address(9)


def mcts_game(ms: int) -> dict:
    return {"game": CARD, "players": [{"name": "ann"}, {"name": "rob", "bot": f"mcts:{ms}"}]}


def game_cost_s(ms: int) -> float:
    return estimate.game_seconds(get_rules(CARD), mcts_game(ms)["players"])


def assert_budget_refusal(response, budget: float, remaining: float, requested: float):
    assert response.status_code == 429, response.json
    error = response.json["error"]
    assert error["code"] == "cpu_budget_exceeded"
    assert error["budget_seconds"] == budget
    assert error["remaining_seconds"] == pytest.approx(remaining, abs=0.01)
    assert error["requested_seconds"] == pytest.approx(requested, abs=0.01)
    assert 1 <= int(response.headers["Retry-After"]) <= 3600


def test_the_estimate_refuses_four_mcts_5000_bots_over_10000_games_up_front(
    redis_url, redis_client
):
    client = budget_app(redis_url).test_client()
    address = own_address()
    tournaments_before = redis_client.zcard(keys.tournaments_by_created())
    refused = client.post("/v1/tournaments", json=ATTACK, environ_base=address)
    requested = estimate.tournament_seconds(get_rules(CARD), ["mcts:5000"] * 4, 4, 10_000)
    assert requested > 1_000_000  # millions of CPU-seconds, as reported
    assert_budget_refusal(refused, 100, 100, requested)
    assert redis_client.zcard(keys.tournaments_by_created()) == tournaments_before
    # with an account key, the account's (larger) budget refuses it too
    made = client.post("/v1/accounts", json={"name": f"big_{secrets.token_hex(5)}"})
    auth = {"Authorization": f"Bearer {made.json['key']}"}
    refused = client.post("/v1/tournaments", json=ATTACK, headers=auth, environ_base=address)
    assert_budget_refusal(refused, 1000, 1000, requested)


def test_an_anonymous_address_gets_the_small_budget_and_is_told_what_is_left(redis_url):
    client = budget_app(redis_url).test_client()
    address = own_address()
    cost = game_cost_s(500)  # about 42 CPU-seconds: two fit in 100, a third does not
    for _ in range(2):
        created = client.post("/v1/games", json=mcts_game(500), environ_base=address)
        assert created.status_code == 201, created.json
    refused = client.post("/v1/games", json=mcts_game(500), environ_base=address)
    assert_budget_refusal(refused, 100, 100 - 2 * cost, cost)
    # another address has a budget of its own; a game of instant bots costs next to nothing
    assert (
        client.post("/v1/games", json=mcts_game(500), environ_base=own_address()).status_code == 201
    )
    cheap = {"game": CARD, "players": [{"name": "ann"}, {"name": "rob", "bot": "greedy"}]}
    assert client.post("/v1/games", json=cheap, environ_base=address).status_code == 201


def test_an_account_key_spends_the_larger_account_budget_not_the_address(redis_url):
    client = budget_app(redis_url).test_client()
    address = own_address()
    made = client.post(
        "/v1/accounts", json={"name": f"budget_{secrets.token_hex(5)}"}, environ_base=address
    )
    assert made.status_code == 201, made.json
    auth = {"Authorization": f"Bearer {made.json['key']}"}
    cost = game_cost_s(2000)  # 170 s: over the anonymous budget, within the account's
    anonymous = client.post("/v1/games", json=mcts_game(2000), environ_base=address)
    assert_budget_refusal(anonymous, 100, 100, cost)
    for _ in range(5):
        created = client.post("/v1/games", json=mcts_game(2000), headers=auth, environ_base=address)
        assert created.status_code == 201, created.json
    refused = client.post("/v1/games", json=mcts_game(2000), headers=auth, environ_base=address)
    assert_budget_refusal(refused, 1000, 1000 - 5 * cost, cost)
    # the address's own (anonymous) budget was not touched by the account's games
    assert client.post("/v1/games", json=mcts_game(500), environ_base=address).status_code == 201


def test_a_refused_or_failed_request_costs_nothing(redis_url):
    client = budget_app(redis_url).test_client()
    address = own_address()
    bad = {"game": CARD, "players": [{"name": "ann"}, {"account": "nobody_here_at_all"}]}
    assert client.post("/v1/games", json=bad, environ_base=address).status_code == 404
    for _ in range(2):
        assert (
            client.post("/v1/games", json=mcts_game(500), environ_base=address).status_code == 201
        )


def test_cancelling_gives_back_what_was_not_used(redis_url):
    client = budget_app(redis_url).test_client()
    address = own_address()
    first = client.post("/v1/games", json=mcts_game(500), environ_base=address)
    second = client.post("/v1/games", json=mcts_game(500), environ_base=address)
    assert client.post("/v1/games", json=mcts_game(500), environ_base=address).status_code == 429
    token = first.json["creator_token"]
    cancelled = client.post(
        f"/v1/games/{first.json['id']}/cancel", headers={"Authorization": f"Bearer {token}"}
    )
    assert cancelled.status_code == 200 and cancelled.json["status"] == "cancelled"
    assert second.status_code == 201
    assert client.post("/v1/games", json=mcts_game(500), environ_base=address).status_code == 201


def test_a_cancelled_tournament_gives_back_its_unplayed_games(redis_url):
    client = budget_app(redis_url).test_client()
    address = own_address()
    body = {"game": CARD, "bots": ["mcts:100", "greedy"], "games": 6, "seed": "budget"}
    cost = estimate.tournament_seconds(get_rules(CARD), ["mcts:100", "greedy"], 2, 6)
    assert 50 < cost < 100
    started = client.post("/v1/tournaments", json=body, environ_base=address)
    assert started.status_code == 202, started.json
    refused = client.post("/v1/tournaments", json=body, environ_base=address)
    assert_budget_refusal(refused, 100, 100 - cost, cost)
    auth = {"Authorization": f"Bearer {started.json['token']}"}
    assert (
        client.post(f"/v1/tournaments/{started.json['id']}/cancel", headers=auth).status_code == 200
    )
    assert client.post("/v1/tournaments", json=body, environ_base=address).status_code == 202


def test_budgets_are_set_as_limits_strings_or_switched_off(redis_url):
    client = budget_app(redis_url, BUDGET_ANON="off").test_client()
    address = own_address()
    for _ in range(3):
        assert (
            client.post("/v1/games", json=mcts_game(500), environ_base=address).status_code == 201
        )
    client = budget_app(redis_url, BUDGET_ANON="1 per minute;100 per day").test_client()
    refused = client.post("/v1/games", json=mcts_game(500), environ_base=own_address())
    assert_budget_refusal(refused, 1, 1, game_cost_s(500))
    assert int(refused.headers["Retry-After"]) <= 60


def test_a_game_that_ends_on_a_bot_move_is_settled_to_the_cpu_its_bots_used(
    redis_url, redis_client
):
    from rq.serializers import JSONSerializer

    from application.operations import jobs
    from store.budget.records import BudgetStore
    from workers.fair import FairSimpleWorker

    for person in (True, False):
        jobs.bot_queue(redis_client, person).empty()
    client = budget_app(redis_url, ENQUEUE_BOTS=True).test_client()
    bots_only = {"game": CARD, "players": [{"name": "rob", "bot": "greedy"}] * 2}
    created = client.post("/v1/games", json=bots_only, environ_base=own_address())
    assert created.status_code == 201
    store = BudgetStore(redis_client)
    record = store.record(keys.game_creator(created.json["id"]))
    charged = int(record["charged_ms"])
    expected_s = estimate.game_seconds(get_rules(CARD), bots_only["players"])
    assert charged == math.ceil(round(expected_s * 1000, 6))
    (counter,) = json.loads(record["counters"])
    assert int(redis_client.get(counter)) == charged
    worker = FairSimpleWorker(
        jobs.queues(redis_client), connection=redis_client, serializer=JSONSerializer
    )
    worker.work(burst=True, logging_level="ERROR", with_scheduler=False)
    assert client.get(f"/v1/games/{created.json['id']}").json["status"] == "finished"
    record = store.record(keys.game_creator(created.json["id"]))
    assert record["settled"] == "1" and int(record["used_ms"]) > 0
    assert int(redis_client.get(counter)) == int(record["used_ms"])  # the estimate reconciled


def test_me_shows_the_accounts_bot_cpu_budget_and_when_it_is_spent(redis_url, redis_client):
    from application.budget.service import Payer
    from store.budget.records import BudgetStore, Limit

    client = budget_app(redis_url).test_client()
    made = client.post("/v1/accounts", json={"name": f"spender_{secrets.token_hex(5)}"})
    auth = {"Authorization": f"Bearer {made.json['key']}"}
    fresh = client.get("/v1/me", headers=auth).json["bot_cpu"]
    assert fresh["spent"] is False
    (limit,) = fresh["limits"]
    assert (limit["seconds"], limit["period_seconds"], limit["used_seconds"]) == (1000, 3600, 0)
    assert client.post("/v1/games", json=mcts_game(500), headers=auth).status_code == 201
    charged = client.get("/v1/me", headers=auth).json["bot_cpu"]["limits"][0]["used_seconds"]
    assert charged == pytest.approx(game_cost_s(500), abs=0.001)
    payer = Payer.of("", made.json["name"].lower()).id
    BudgetStore(redis_client).charge(payer, [Limit(1_000_000, 3600)], 1_000_000, force=True)
    spent = client.get("/v1/me", headers=auth).json["bot_cpu"]
    assert spent["spent"] is True and spent["limits"][0]["used_seconds"] == 1000


def test_me_shows_no_bot_cpu_budget_when_budgets_are_off(redis_url):
    client = budget_app(redis_url, BUDGET_ENABLED=False).test_client()
    made = client.post("/v1/accounts", json={"name": f"free_{secrets.token_hex(5)}"})
    auth = {"Authorization": f"Bearer {made.json['key']}"}
    assert client.get("/v1/me", headers=auth).json["bot_cpu"] is None
