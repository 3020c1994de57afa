"""The settings object: defaults, typed values from the environment, refusals that name the
variable, where each value came from, and one read per process."""

from __future__ import annotations

import pytest

import settings
from settings import describe, from_env
from settings.fields import VARS


def test_an_empty_environment_gives_every_default():
    read = from_env({})
    assert all(getattr(read, var.attr) == var.default for var in VARS)
    assert set(read.sources.values()) == {settings.DEFAULT}


def test_each_variable_has_one_field_and_a_description():
    names = [var.name for var in VARS]
    assert len(set(names)) == len(names)
    assert set(settings.Settings.__dataclass_fields__) == {v.attr for v in VARS} | {"sources"}
    assert all(var.description and var.allowed for var in VARS)


def test_values_are_typed_and_their_source_recorded():
    read = from_env(
        {
            "KELTIS_GAME_EXPIRY_S": "90",
            "KELTIS_ARCHIVE_AFTER": "2d",
            "KELTIS_SERVICE_PORT": "8000, 8001",
            "KELTIS_POOL_BOTS": "greedy, mcts:100,",
            "KELTIS_FAST_MOVES": " OFF ",
            "REDIS_CLUSTER": "1",
            "KELTIS_STREAMS_PER_ADDRESS": "none",
        }
    )
    assert read.game_expiry_s == 90.0
    assert read.archive_after_s == 2 * 86_400
    assert read.service_ports == (8000, 8001)
    assert read.pool_bots == ("greedy", "mcts:100")
    assert (read.fast_moves, read.redis_cluster, read.streams_per_address) == (False, True, 0)
    assert read.from_environment("KELTIS_GAME_EXPIRY_S")
    assert not read.from_environment("KELTIS_COMPACT_AFTER_S")


def test_bounded_whole_numbers_are_held_within_and_fall_back_on_text():
    assert from_env({"KELTIS_BUILD_THREADS": "50"}).build_threads == 8
    assert from_env({"KELTIS_BUILD_THREADS": "many"}).build_threads == 1
    assert from_env({"KELTIS_ANALYSIS_ITERATIONS": "0"}).analysis_iterations == 1
    assert from_env({"KELTIS_ANALYSIS_ITERATIONS": "x"}).analysis_iterations == 12
    assert from_env({"KELTIS_BULK_NICENESS": "-4"}).bulk_niceness == 0


def test_blank_means_the_default_where_the_readers_always_took_it_so():
    blank = from_env({"KELTIS_WEBHOOK_CALL_TIMEOUT_S": " ", "KELTIS_ARCHIVE_AFTER": ""})
    assert (blank.webhook_call_timeout_s, blank.archive_after_s) == (5.0, 86_400.0)
    assert blank.sources["KELTIS_ARCHIVE_AFTER"] == settings.DEFAULT


@pytest.mark.parametrize(
    ("name", "raw", "message"),
    [
        ("KELTIS_GAME_EXPIRY_S", "abc", "KELTIS_GAME_EXPIRY_S must be a number of at least 0"),
        ("KELTIS_REDIS_POOL_SIZE", "²", "KELTIS_REDIS_POOL_SIZE must be a whole number of 1"),
        ("KELTIS_WEBHOOK_CALL_TIMEOUT_S", "0", "above 0 and at most 3600, got '0'"),
        ("KELTIS_WEBHOOK_CALLS_PER_ACCOUNT", "0", "between 1 or more"),
        ("KELTIS_ARCHIVE_AFTER", "soon", "KELTIS_ARCHIVE_AFTER must be seconds or a number"),
        ("KELTIS_WEBHOOK_ALLOW", "10.0.0.0/8,lan", "networks (CIDR), got 'lan'"),
        ("KELTIS_SERVICE_PORT", "80,http", "KELTIS_SERVICE_PORT must be comma-separated"),
    ],
)
def test_a_refused_value_names_its_variable_and_the_allowed_range(name, raw, message):
    with pytest.raises(settings.SettingsError) as refused:
        from_env({name: raw})
    assert message in str(refused.value)


def test_current_reads_once_until_reloaded(monkeypatch):
    settings.track_environment(False)
    try:
        monkeypatch.setenv("KELTIS_PAIR_EVERY_S", "3")
        settings.reload()
        first = settings.current()
        monkeypatch.setenv("KELTIS_PAIR_EVERY_S", "4")
        assert settings.current() is first
        settings.reload()
        assert settings.current().pair_every_s == 4.0
    finally:
        settings.track_environment(True)


def test_tests_see_each_change_of_the_environment(monkeypatch):
    monkeypatch.setenv("KELTIS_PAIR_EVERY_S", "5")
    assert settings.current().pair_every_s == 5.0
    monkeypatch.delenv("KELTIS_PAIR_EVERY_S")
    assert settings.current().pair_every_s == 1.0


def test_secrets_are_masked_and_sources_shown():
    read = from_env(
        {
            "REDIS_URL": "redis://user:hunter2@redis.internal:6380/0",
            "KELTIS_ARCHIVE_URL": "postgresql://keltis@db/keltis",
            "KELTIS_OPERATOR_TOKEN": "hunter2",
        }
    )
    shown = describe.table(read)
    assert "hunter2" not in shown
    lines = {line.split()[0]: line.split()[1:] for line in shown.splitlines()}
    assert lines["REDIS_URL"] == ["redis://user:***@redis.internal:6380/0", "(environment)"]
    assert lines["KELTIS_ARCHIVE_URL"] == ["postgresql://keltis@db/keltis", "(environment)"]
    assert lines["KELTIS_OPERATOR_TOKEN"] == ["***", "(environment)"]
    assert lines["KELTIS_QUOTAS"] == ["on", "(default)"]


def test_a_long_poll_answers_before_a_client_keeping_a_10_second_read_timeout_gives_up():
    """schemathesis, and many HTTP clients, read for 10 s by default: a long poll of events
    that asks for longer is held at most the cap, which stays under that with room."""
    assert from_env({}).max_events_wait_s <= 8.0
