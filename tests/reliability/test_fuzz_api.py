"""schemathesis against openapi.yaml: 1,000+ generated requests (valid and invalid) to the
Flask app over a real Redis; no 5xx, and no answer outside the contract.

The generated games (bot against bot, `mcts:1000` among them) go to a server of their own
(`private_redis`), not the session's shared one: there, the sweep of every worker a later
test starts would revive their bot turns and spend minutes of search on them."""

from __future__ import annotations

import pytest

from api import create_app
from devtools.reliability.fuzz_api import fuzz_app, fuzz_hostile_bodies

# x 67 operations, minus those without invalid inputs: some 1,400 requests (seeded: the same
# ones each run); 120 made 5,000+ and took minutes of CPU for no more than the 1,000+ promised.
EXAMPLES_PER_OPERATION = 30


@pytest.mark.slow
@pytest.mark.timeout(600)  # a CPU-minute or two: over 300 s when 2 cores are shared
def test_fuzzed_requests_get_no_5xx_and_stay_inside_the_contract(
    private_redis, private_redis_server
):
    app = create_app(
        {
            "REDIS_URL": private_redis_server.url,
            "TESTING": True,
            "MAX_EVENTS_WAIT_S": 0.01,  # generated wait= values must not hold the run
            "STREAM_MAX_S": 0.2,  # nor a stream of the live game (an hour by default)
            "RATELIMIT_ENABLED": False,
        }
    )
    report = fuzz_app(app, EXAMPLES_PER_OPERATION)
    assert report.requests >= 1000
    assert report.server_errors == 0, report.statuses
    assert report.failures == []
    refused = report.statuses[422] + report.statuses[400]
    assert refused > 100  # the invalid half was really invalid (a bad body or query)
    assert sum(n for status, n in report.statuses.items() if status < 300) > 50


def test_surrogates_and_chunked_bodies_get_no_5xx_and_oversize_is_413(
    private_redis, private_redis_server
):
    config = {"REDIS_URL": private_redis_server.url, "TESTING": True, "RATELIMIT_ENABLED": False}
    app = create_app(config)
    report = fuzz_hostile_bodies(app, examples=200)
    assert report.requests >= 200
    assert report.server_errors == 0, report.statuses
    assert report.failures == []
    assert report.statuses[413] > 20 and report.statuses[422] > 20
