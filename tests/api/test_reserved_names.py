"""No account poses as a built-in bot or as the service: `greedy`, `random`, `mcts`,
`level-1`, `admin` and `me` were signed up and shown beside the bots they copy. Every bot's
and level's name of every game, and the service's own words, are reserved, look-alikes and
separators folded (409 name_taken, the one error shape); other names stay free."""

from __future__ import annotations

import secrets

import pytest

from domain.registry import game_names, get_rules
from tests.api.test_accounts import error_code

POSED = [
    *("greedy", "random", "mcts", "level-1", "admin", "me"),  # as they were signed up
    *("Greedy", "RANDOM", "rncts", "level_1", "Level-I", "level1", "level-5", "ADMIN", "Me"),
    *("keltis", "root", "system"),
]


@pytest.mark.parametrize("name", POSED)
def test_a_bot_or_service_name_cannot_be_signed_up(client, name):
    refused = client.post("/v1/accounts", json={"name": name, "bot": True})
    assert refused.status_code == 409, refused.json
    assert error_code(refused) == "name_taken" and "reserved" in refused.json["error"]["message"]
    assert client.get(f"/v1/accounts/{name}").status_code == 404


def test_every_bot_of_every_game_is_reserved(client):
    bots = {bot.replace(":", "-") for game in game_names() for bot in get_rules(game).bots}
    for bot in sorted(bots):
        assert client.post("/v1/accounts", json={"name": bot}).status_code == 409, bot


def test_names_that_only_contain_a_reserved_word_stay_free(client):
    suffix = secrets.token_hex(3).replace("0", "a").replace("1", "b")
    for name in (f"greedy{suffix}", f"me{suffix}", f"admin_{suffix}"):
        made = client.post("/v1/accounts", json={"name": name})
        assert made.status_code == 201, made.json
