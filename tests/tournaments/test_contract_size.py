"""The contract states the size bound of a round robin or duplicate tournament (its
games_per_table steps, tournaments.schedule.PER_TABLE_STEPS) exactly as the service applies
it, so a body the contract admits is never refused for its size (schemathesis' ST202) and
the reverse; and no size it admits passes 10,000 games."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from openapi_schema_validator import OAS30Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT4

from tournaments.errors import InvalidTournament
from tournaments.schedule import max_games_per_table, total_games
from tournaments.spec import MAX_GAMES, make_spec

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"


@pytest.fixture(scope="module")
def create_tournament() -> OAS30Validator:
    contract = yaml.safe_load(SPEC.read_text())
    registry = Registry().with_resource(
        "urn:contract", Resource.from_contents(contract, default_specification=DRAFT4)
    )
    schema = {"$ref": "urn:contract#/components/schemas/CreateTournament"}
    return OAS30Validator(schema, registry=registry)


def _service_accepts(fmt: str, entries: int, seats: int, per_table: int | None) -> bool:
    try:
        make_spec(
            "keltis-card", ["greedy"] * entries, seats, None, "s",
            format=fmt, games_per_table=per_table,
        )  # fmt: skip
    except InvalidTournament:
        return False
    return True


def _cases():
    for seats in (2, 3, 4):
        for entries in range(seats, 33):
            cap = max_games_per_table(entries, seats)
            for per_table in {None, 1, cap, cap + 1} - {0}:
                yield seats, entries, per_table


@pytest.mark.parametrize("fmt", ["round_robin", "duplicate"])
def test_the_contract_admits_exactly_the_sizes_the_service_accepts(create_tournament, fmt):
    disagreements = []
    for seats, entries, per_table in _cases():
        if fmt == "duplicate" and per_table is not None:
            per_table = max(seats, per_table - per_table % seats)  # a whole number of deals
        body = {"game": "keltis-card", "bots": ["greedy"] * entries, "format": fmt,
                "players_per_game": seats}  # fmt: skip
        if per_table is not None:
            body["games_per_table"] = per_table
        admitted = create_tournament.is_valid(body)
        if admitted != _service_accepts(fmt, entries, seats, per_table):
            disagreements.append((seats, entries, per_table, admitted))
    assert disagreements == []


def test_no_admitted_size_passes_10000_games():
    for seats, entries, _ in _cases():
        most = max_games_per_table(entries, seats)
        assert total_games("round_robin", entries, seats, most) <= MAX_GAMES
