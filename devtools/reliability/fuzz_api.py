"""Hostile requests: schemathesis generates requests from openapi.yaml (valid and invalid)
and sends them to the Flask app over a real Redis; every answer is held to the contract.

Half of the generated requests get a real game id and a real seat token swapped in, so
they reach the game logic instead of stopping at 404 / 401.
Used by tests/reliability/test_fuzz_api.py and bench/reliability.py.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import schemathesis
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.control import SkipTest
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi import checks as openapi_checks

CHECKS = [
    not_a_server_error,
    openapi_checks.status_code_conformance,
    openapi_checks.content_type_conformance,
    openapi_checks.response_headers_conformance,
    openapi_checks.response_schema_conformance,
]
MODES = (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
SKIPPED_OPERATIONS = frozenset()


@dataclass
class FuzzReport:
    requests: int = 0
    statuses: Counter = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    unsatisfiable: list[str] = field(default_factory=list)

    @property
    def server_errors(self) -> int:
        return sum(count for status, count in self.statuses.items() if status >= 500)


IDENTITY = {"Accept-Encoding": "identity"}  # every request's (see `send`)


# Hostile tokens beside the real ones: a seat digit that is a digit but not ASCII ("²",
# Arabic-Indic one), which `str.isdigit` accepts and `int` may refuse.
def _hostile_tokens(game_id: str) -> list[str]:
    return [f"{game_id}.\u00b2.x", f"{game_id}.\u0661.x".encode().decode("latin-1"), "x.\u00b2.y"]


def _real_game(app) -> tuple[str, list[str]]:
    client = app.test_client()
    body = {"game": "keltis-card", "players": [{"name": "ann"}, {"name": "bea"}]}
    created = client.post("/v1/games", json=body).get_json()
    return created["id"], [seat["token"] for seat in created["seats"]]


def fuzz_app(app, examples_per_operation: int = 60, run_seed: int = 1) -> FuzzReport:
    """Send about `examples_per_operation` generated requests to every operation."""
    game_id, tokens = _real_game(app)
    report = FuzzReport()
    per_mode = max(1, examples_per_operation // len(MODES))
    for mode in MODES:
        for operation in _operations(app, mode):
            strategy = st.tuples(
                operation.as_strategy(generation_mode=mode),
                st.booleans(),
                st.sampled_from([*tokens, *_hostile_tokens(game_id), None]),
            )
            _run(strategy, per_mode, run_seed, game_id, report, operation.label)
    return report


def _operations(app, mode: GenerationMode) -> list:
    """The operations of openapi.yaml, from a schema that generates in `mode` alone: then an
    operation with nothing to make invalid (a path of free strings, no body) says so at its
    first draw, where with both modes on each such draw is rejected, some 450 times over."""
    schema = schemathesis.openapi.from_wsgi("/openapi.yaml", app)
    schema.config.generation.update(modes=[mode])
    operations = (result.ok() for result in schema.get_all_operations())
    return [operation for operation in operations if operation.label not in SKIPPED_OPERATIONS]


def _run(strategy, examples, run_seed, game_id, report, label) -> None:
    @seed(run_seed)
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(drawn=strategy)
    def send(drawn) -> None:
        case, use_real_game, token = drawn
        if use_real_game:
            if case.path_parameters and "game_id" in case.path_parameters:
                case.path_parameters["game_id"] = game_id
            if token is not None:
                case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
        # requests' default `Accept-Encoding: gzip, deflate` would get a finished game's
        # replay compressed, which the WSGI transport hands on without undoing the coding
        response = case.call(headers=IDENTITY)
        report.requests += 1
        report.statuses[response.status_code] += 1
        try:
            case.validate_response(response, checks=CHECKS)
        except FailureGroup as failures:
            report.failures.append(f"{label}: {str(failures)[:600]}")

    try:
        send()
    except (Unsatisfiable, SkipTest):  # nothing invalid to generate (an operation without inputs)
        report.unsatisfiable.append(label)


# ----- bodies the OpenAPI generator never makes: lone surrogates, chunked framing -------

BODY_PATHS = ("/v1/games", "/v1/games/{id}/moves", "/v1/games/{id}/seats/1/join", "/v1/tournaments")
ANY_CHAR = st.characters(codec=None, exclude_categories=())  # lone surrogates included
JSON_TEXT = st.text(ANY_CHAR, max_size=12)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | JSON_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(JSON_TEXT, inner, max_size=4),
    max_leaves=12,
)


def fuzz_hostile_bodies(app, examples: int = 200, run_seed: int = 1) -> FuzzReport:
    """JSON objects with lone surrogates in keys and strings, sent framed and chunked."""
    import io
    import json

    game_id, tokens = _real_game(app)
    client = app.test_client()
    report = FuzzReport()

    @seed(run_seed)
    @settings(max_examples=examples, deadline=None, database=None)
    @given(
        path=st.sampled_from(BODY_PATHS),
        document=st.dictionaries(JSON_TEXT, JSON_VALUES, max_size=5),
        is_chunked=st.booleans(),
        padding=st.sampled_from([0, 70_000]),
    )
    def send(path, document, is_chunked, padding):
        raw = (json.dumps(document)[:-1] + " " * padding + "}").encode()
        target = path.replace("{id}", game_id)
        headers = {"Authorization": f"Bearer {tokens[0]}", "Content-Type": "application/json"}
        if is_chunked:
            response = client.post(
                target,
                input_stream=io.BytesIO(raw),
                headers={**headers, "Transfer-Encoding": "chunked"},
                environ_overrides={"wsgi.input_terminated": True},
            )
        else:
            response = client.post(target, data=raw, headers=headers)
        report.requests += 1
        report.statuses[response.status_code] += 1
        if padding and response.status_code != 413:
            report.failures.append(f"{path} {len(raw)} bytes: {response.status_code}")

    send()
    return report
