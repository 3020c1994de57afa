"""Passwords and sign-in limits without HTTP: argon2id hashes that verify only their own
password, the production cost is RFC 9106's low-memory profile, an unknown name verifies a
dummy hash of the same cost, hashing waits are bounded, a changed cost asks for a rehash; the
attempts' fixed windows count per name and address and per address, each with its
Retry-After."""

from __future__ import annotations

import secrets
import threading

import pytest
from argon2 import PasswordHasher, Type
from argon2.profiles import RFC_9106_LOW_MEMORY

import settings
from application.accounts import passwords
from application.accounts.errors import PasswordsBusy, SignInLimited, WeakPassword
from application.accounts.sign_in_limits import count_attempt

GOOD = "correct horse battery"


def test_a_hash_is_argon2id_and_verifies_only_its_own_password():
    stored = passwords.hash_password(GOOD)
    assert stored.startswith("$argon2id$") and GOOD not in stored
    assert passwords.verify(stored, GOOD)
    assert not passwords.verify(stored, GOOD + "!")
    assert passwords.hash_password(GOOD) != stored  # a salt of its own each time


def test_the_default_cost_is_rfc_9106_low_memory(monkeypatch):
    monkeypatch.delenv("KELTIS_PASSWORD_TIME_COST", raising=False)
    monkeypatch.delenv("KELTIS_PASSWORD_MEMORY_KIB", raising=False)
    hasher = passwords.hasher()
    assert hasher.type is Type.ID is RFC_9106_LOW_MEMORY.type
    assert (hasher.time_cost, hasher.memory_cost, hasher.parallelism) == (
        RFC_9106_LOW_MEMORY.time_cost,
        RFC_9106_LOW_MEMORY.memory_cost,
        RFC_9106_LOW_MEMORY.parallelism,
    )


def test_the_tests_hash_at_the_least_cost():
    assert (settings.current().password_time_cost, settings.current().password_memory_kib) == (
        1,
        64,
    )


def test_no_stored_hash_verifies_a_dummy_of_the_same_cost_and_fails(monkeypatch):
    verified = []
    real = PasswordHasher.verify
    monkeypatch.setattr(
        PasswordHasher, "verify", lambda self, h, p: verified.append(h) or real(self, h, p)
    )
    assert passwords.verify(None, GOOD) is False
    assert passwords.verify(None, "not the password of any account") is False
    assert len(verified) == 2 and verified[0].startswith("$argon2id$v=19$m=64,t=1,p=4$")


def test_a_malformed_stored_hash_fails_verification():
    assert passwords.verify("not a hash", GOOD) is False


def test_a_changed_cost_asks_for_a_rehash(monkeypatch):
    stored = passwords.hash_password(GOOD)
    assert not passwords.needs_rehash(stored)
    monkeypatch.setenv("KELTIS_PASSWORD_TIME_COST", "2")
    assert passwords.needs_rehash(stored)


@pytest.mark.parametrize(
    ("password", "name"),
    [
        ("short", "ann"),
        ("x" * 201, "ann"),
        ("Ann_Player", "ann_player"),
        (" ann_player ", "Ann_Player"),
    ],
    ids=["too short", "too long", "the name in another case", "the name with blanks"],
)
def test_the_rules_refuse_a_weak_password(password, name):
    with pytest.raises(WeakPassword):
        passwords.check_rules(password, name)


def test_the_rules_take_ten_to_two_hundred_characters_other_than_the_name():
    passwords.check_rules("x" * 10, "ann")
    passwords.check_rules("x" * 200, "ann")


def test_hashes_waiting_beyond_the_bound_are_refused_not_queued(monkeypatch):
    started, release = threading.Event(), threading.Event()

    def slow(fn, *args):
        started.set()
        release.wait(10)
        return "done"

    monkeypatch.setattr(passwords.offload, "run", slow)
    monkeypatch.setattr(passwords, "_waiting", threading.BoundedSemaphore(1))
    holder = threading.Thread(target=passwords.hash_password, args=(GOOD,))
    holder.start()
    assert started.wait(10)
    with pytest.raises(PasswordsBusy):
        passwords.hash_password(GOOD)
    release.set()
    holder.join(10)
    assert passwords.hash_password(GOOD) == "done"  # the slot is free again


@pytest.mark.redis
def test_attempts_per_name_and_address_are_limited_in_a_fixed_window(redis_client):
    name, address, at = (
        f"lim{secrets.token_hex(4)}",
        f"10.9.{secrets.randbelow(250)}.1",
        1_800_000_100.0,
    )
    for _ in range(5):
        count_attempt(redis_client, name, address, lambda: at)
    with pytest.raises(SignInLimited) as refused:
        count_attempt(redis_client, name.upper(), address, lambda: at)  # any case is one name
    assert refused.value.retry_after_s == 900 - 100  # the window of 15 minutes ends then
    count_attempt(redis_client, name, address, lambda: at + 800)  # the next window
    count_attempt(redis_client, name, f"{address}0", lambda: at)  # another address


@pytest.mark.redis
def test_attempts_per_address_are_limited_whatever_the_name(redis_client, monkeypatch):
    monkeypatch.setenv("KELTIS_SIGN_IN_LIMIT_ADDRESS", "3 per hour")
    address, at = f"10.8.{secrets.randbelow(250)}.2", 1_800_000_000.0
    for _ in range(3):
        count_attempt(redis_client, f"n{secrets.token_hex(4)}", address, lambda: at)
    with pytest.raises(SignInLimited) as refused:
        count_attempt(redis_client, f"n{secrets.token_hex(4)}", address, lambda: at)
    assert refused.value.retry_after_s == 3600 - 1_800_000_000 % 3600


@pytest.mark.redis
def test_limits_off_count_nothing(redis_client, monkeypatch):
    monkeypatch.setenv("KELTIS_SIGN_IN_LIMIT_ACCOUNT", "off")
    monkeypatch.setenv("KELTIS_SIGN_IN_LIMIT_ADDRESS", "off")
    for _ in range(30):
        count_attempt(redis_client, "someone", "10.7.7.7")


def test_a_limit_setting_that_is_no_limit_stops_the_settings(monkeypatch):
    monkeypatch.setenv("KELTIS_SIGN_IN_LIMIT_ACCOUNT", "five a minute")
    with pytest.raises(settings.SettingsError, match="KELTIS_SIGN_IN_LIMIT_ACCOUNT"):
        settings.current()
