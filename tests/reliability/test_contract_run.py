"""The contract and the server agree: Schemathesis 4 with every check and every phase
(stateful included) against gunicorn over the real Redis finds no failure, with a real
account key and seat token so that the account and seat operations are reached (a list's
`cursor=0`, a bot named "0" and a huge tournament stream `after` were schema-valid and
refused, ST202). The stranger's run is in test_contract_run_stranger.py, a file of its
own so that the two minutes-long runs go to different test workers."""

from __future__ import annotations

import pytest

from tests.reliability.contract_run import SUITE_MAX_EXAMPLES, assert_clean, run_contract


@pytest.mark.slow
@pytest.mark.timeout(600)  # st and gunicorn: over 300 s when 2 cores are shared
def test_schemathesis_with_every_check_finds_no_failure(contract_server, tmp_path):
    run = run_contract(contract_server.url, tmp_path, SUITE_MAX_EXAMPLES)
    assert_clean(run)
    assert run.only_unauthorized() == [], run.summary()  # keys and tokens reached every one
