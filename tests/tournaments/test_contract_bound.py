"""openapi.yaml's CreateTournament states the service's own bounds on a round robin and a
duplicate (at most MAX_GAMES games, a duplicate's tables a multiple of its seats), so that a
tournament the contract calls valid is one the service starts, and the other way round."""

from __future__ import annotations

from math import comb
from pathlib import Path

import jsonschema
import pytest
import yaml

from tournaments.errors import InvalidTournament
from tournaments.schedule import DUPLICATE, ROUND_ROBIN
from tournaments.spec import MAX_ENTRIES, make_spec

CONTRACT = Path(__file__).resolve().parents[2] / "openapi.yaml"


@pytest.fixture(scope="module")
def contract_valid():
    """Whether a body is a valid CreateTournament by openapi.yaml."""
    document = yaml.safe_load(CONTRACT.read_text())
    schema = {
        "$ref": "#/components/schemas/CreateTournament",
        "components": document["components"],
    }
    validator = jsonschema.Draft202012Validator(schema)
    return validator.is_valid


def _service_starts(body: dict) -> bool:
    try:
        make_spec(
            body["game"],
            body["bots"],
            body.get("players_per_game"),
            None,
            "seed",
            format=body["format"],
            games_per_table=body.get("games_per_table"),
        )
    except InvalidTournament:
        return False
    return True


def _cases():
    """Bodies at and around each bound: every seat count, entry count and format, with
    games_per_table left out, at one and at the edges where the total crosses the bound."""
    for fmt in (ROUND_ROBIN, DUPLICATE):
        for seats in (2, 3, 4):
            for entries in range(seats, MAX_ENTRIES + 1):
                body = {"game": "keltis-card", "bots": ["greedy"] * entries, "format": fmt}
                body["players_per_game"] = seats
                yield dict(body)
                for per_table in {1, seats, 2 * seats, 9_999, 10_000} | _edges(seats, entries):
                    if 1 <= per_table <= 10_000:
                        yield {**body, "games_per_table": per_table}


def _edges(seats: int, entries: int) -> set[int]:
    most = 10_000 // comb(entries, seats)
    return {most - seats, most - 1, most, most + 1, most + seats}


def test_the_contract_and_the_service_agree_on_every_bound(contract_valid):
    disagreements = [body for body in _cases() if contract_valid(body) != _service_starts(body)]
    assert disagreements == [], disagreements[:5]
