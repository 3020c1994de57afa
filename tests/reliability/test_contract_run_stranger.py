"""The contract as someone with only the URL runs it first: Schemathesis 4 with every
check and every phase, no settings file, no key, no token, finds no failure (a whole
number written as a float was sent as an integer while the contract was OpenAPI 3.1, a
repeated query parameter was accepted, /metrics answered an undocumented 404, gunicorn answered a
long query in HTML)."""

from __future__ import annotations

import pytest

from tests.reliability.contract_run import SUITE_MAX_EXAMPLES, assert_clean, run_as_stranger


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_schemathesis_run_by_a_stranger_finds_no_failure(contract_server, tmp_path):
    """Every refusal it meets (401s, a query given twice, a tournament the contract rules
    out) is one the contract documents."""
    assert_clean(run_as_stranger(contract_server.url, tmp_path, SUITE_MAX_EXAMPLES))
