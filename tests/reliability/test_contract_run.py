"""The contract and the server agree: Schemathesis 4 with every check and every phase
(stateful included) against gunicorn over the real Redis finds no failure,
with a real account key and seat token so that the account and seat operations are reached
(a
list's `cursor=0`, a bot named "0" and a huge tournament stream `after` were schema-valid
and refused, ST202), and as a stranger runs it first, with neither settings nor credentials
(a repeated query parameter was accepted, /metrics answered an undocumented 404, gunicorn
answered a long query in HTML)."""

from __future__ import annotations

import re

import pytest

from devtools.reliability.web import WebServer
from tests.reliability.contract_run import (
    METRICS_TOKEN,
    OPERATOR_TOKEN,
    ContractRun,
    run_as_stranger,
    run_contract,
)

MAX_EXAMPLES = 2  # per operation and phase: some 500 requests, 1-2 minutes on 2 busy cores


@pytest.fixture(scope="module")
def served(private_redis_server):
    """gunicorn on a server of its own (the generated bot games, `mcts:1000` among them,
    must not reach the shared one, whose later workers would play them)."""
    with private_redis_server.client() as client:
        client.flushall()
    env = {
        "REDIS_URL": private_redis_server.url,
        "KELTIS_MAX_EVENTS_WAIT_S": "0.01",
        "KELTIS_STREAM_MAX_S": "0.2",  # a stream answers whole within the request timeout
        "KELTIS_OPERATOR_TOKEN": OPERATOR_TOKEN,  # arenas are opened and closed with it
        "KELTIS_METRICS_TOKEN": METRICS_TOKEN,  # /metrics answers (401 without the token)
    }
    with WebServer(env, workers=2) as server:
        yield server


def _assert_clean(run: ContractRun) -> None:
    """Every phase ran and passed: no failure, no error, some hundreds of requests."""
    assert run.returncode == 0, run.summary()
    assert run.events, "st wrote no events"
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):
        assert f"✅ {phase}" in run.output, run.summary()
    generated = re.search(r"(\d+) generated", run.output)
    assert generated and int(generated.group(1)) >= 300, run.summary()


@pytest.mark.slow
@pytest.mark.timeout(600)  # st and gunicorn: over 300 s when 2 cores are shared
def test_schemathesis_with_every_check_finds_no_failure(served, tmp_path):
    run = run_contract(served.url, tmp_path, MAX_EXAMPLES)
    _assert_clean(run)
    assert run.only_unauthorized() == [], run.summary()  # keys and tokens reached every one


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_schemathesis_run_by_a_stranger_finds_no_failure(served, tmp_path):
    """The run as someone with only the URL makes it first: no settings file, no key, no
    token; every refusal it meets (401s, a query given twice, a tournament the contract
    rules out) is one the contract documents."""
    _assert_clean(run_as_stranger(served.url, tmp_path, MAX_EXAMPLES))
