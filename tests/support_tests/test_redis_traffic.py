"""devtools.redis_traffic: a pipeline is one round trip and its commands each; a script's
call is one round trip and counts its own commands; the readings count none of theirs."""

from __future__ import annotations

import pytest

from devtools.redis_traffic import reading

pytestmark = pytest.mark.redis

TWO_WRITES = "redis.call('SET', KEYS[1], 1) redis.call('INCR', KEYS[1])"


@pytest.fixture
def client(redis_server_factory):
    client = redis_server_factory().client()
    client.ping()  # the connection's own set-up before the first reading
    return client


def test_two_readings_in_a_row_count_nothing(client):
    first = reading([client])
    second = reading([client])
    assert (second - first).round_trips == 0
    assert (second - first).commands == 0


def test_a_pipeline_of_three_commands_is_one_round_trip(client):
    before = reading([client])
    pipe = client.pipeline(transaction=False)
    pipe.set("a", 1).incr("a").get("a")
    pipe.execute()
    done = reading([client]) - before
    assert (done.round_trips, done.commands) == (1, 3)
    assert done.bytes_in > 0 and done.bytes_out > 0


def test_a_script_is_one_round_trip_and_counts_its_commands(client):
    before = reading([client])
    client.eval(TWO_WRITES, 1, "b")
    done = reading([client]) - before
    assert (done.round_trips, done.commands) == (1, 3)


def test_the_totals_sum_over_servers(redis_server_factory):
    clients = [redis_server_factory().client() for _ in range(2)]
    for one in clients:
        one.ping()
    before = reading(clients)
    for one in clients:
        one.set("k", 1)
    done = reading(clients) - before
    assert (done.round_trips, done.commands) == (2, 2)
