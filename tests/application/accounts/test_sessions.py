"""Sign-in and its sessions (application.accounts.sessions): a right and a wrong password,
the attempts' limit, the least recently used session ended beyond MAX_SESSIONS, expiry after
KELTIS_SESSION_IDLE_S unused, ending one, all, a missing one, and what needs the password
again (a password change ends every session and keeps the caller signed in)."""

from __future__ import annotations

import dataclasses

import pytest

from application.accounts import auth
from application.accounts.errors import (
    PasswordRequired,
    SessionNotFound,
    SignInFailed,
    SignInLimited,
    Unauthenticated,
    WeakPassword,
)
from application.accounts.sessions import MAX_SESSIONS, USER_AGENT_CHARS

PASSWORD = "correct horse battery"
HERE = "192.0.2.1"


@pytest.fixture
def anna(accounts):
    return accounts.sign_up("Anna", bot=False, webhook=None, password=PASSWORD).record


def _as_session(accounts, token):
    """The record as a request made with the session's token reads it."""
    return auth.account_of(accounts.store, token)


def test_a_right_password_opens_a_session_whose_token_works(accounts, anna):
    opened = accounts.sessions.sign_in("anna", PASSWORD, "firefox", HERE)
    assert opened.name == "Anna" and auth.is_session_token(opened.token)
    assert opened.session.token_hash == auth.key_digest(opened.token)  # the token isn't stored
    assert _as_session(accounts, opened.token).session == opened.session.id


@pytest.mark.parametrize(("name", "password"), [("anna", "wrong password!"), ("bela", PASSWORD)])
def test_a_wrong_password_and_an_unknown_name_fail_alike(accounts, anna, name, password):
    with pytest.raises(SignInFailed) as failed:
        accounts.sessions.sign_in(name, password, "firefox", HERE)
    assert failed.value.message == "the name or the password is wrong"


def test_an_account_without_a_password_cannot_sign_in(accounts):
    accounts.sign_up("bela", bot=False, webhook=None)
    with pytest.raises(SignInFailed):
        accounts.sessions.sign_in("bela", "", "firefox", HERE)


def test_attempts_over_the_limit_are_refused_even_with_the_right_password(
    accounts, anna, monkeypatch
):
    monkeypatch.setenv("KELTIS_SIGN_IN_LIMIT_ACCOUNT", "2 per 15 minutes")
    accounts.sessions.attempt_clock = lambda: 1_000_000.0
    for _ in range(2):
        with pytest.raises(SignInFailed):
            accounts.sessions.sign_in("anna", "wrong password!", "firefox", HERE)
    with pytest.raises(SignInLimited):
        accounts.sessions.sign_in("anna", PASSWORD, "firefox", HERE)
    accounts.sessions.sign_in("anna", PASSWORD, "firefox", "192.0.2.2")  # another address


def test_the_user_agent_is_cut_to_its_limit(accounts, anna):
    opened = accounts.sessions.start(anna, "x" * 1000, HERE)
    assert opened.session.user_agent == "x" * USER_AGENT_CHARS


def test_a_new_session_beyond_the_limit_ends_the_least_recently_used(accounts, anna, clock):
    tokens = []
    for _ in range(MAX_SESSIONS):
        tokens.append(accounts.sessions.start(anna, "ua", HERE).token)
        clock.ms += 1
    accounts.sessions.start(anna, "ua", HERE)
    assert len(accounts.store.sessions.all(anna.folded)) == MAX_SESSIONS
    with pytest.raises(Unauthenticated):
        _as_session(accounts, tokens[0])
    _as_session(accounts, tokens[1])  # the next oldest lives on


def test_the_list_marks_the_callers_session_and_shows_no_secret(accounts, anna, clock):
    first = accounts.sessions.start(anna, "one", HERE)
    clock.ms += 5
    second = accounts.sessions.start(anna, "two", HERE)
    listed = accounts.sessions.listed(_as_session(accounts, second.token))
    assert [s["id"] for s in listed] == [first.session.id, second.session.id]
    assert [s["current"] for s in listed] == [False, True]
    assert all(set(s) == {"id", "created_at", "last_used_at", "user_agent", "address", "current"}
               for s in listed)  # fmt: skip


def test_a_session_unused_longer_than_its_lifetime_is_ended_when_listed(
    accounts, anna, clock, monkeypatch
):
    monkeypatch.setenv("KELTIS_SESSION_IDLE_S", "60")
    old = accounts.sessions.start(anna, "old", HERE)
    clock.ms += 30_000
    young = accounts.sessions.start(anna, "young", HERE)
    clock.ms += 30_001  # the old one unused for 60.001 s, the young one for 30.001 s
    listed = accounts.sessions.listed(anna)
    assert [s["id"] for s in listed] == [young.session.id]
    assert [s.id for s in accounts.store.sessions.all(anna.folded)] == [young.session.id]
    assert accounts.store.sessions.get(anna.folded, old.session.token_hash) is None


def test_ending_one_session_ends_only_it_and_a_second_end_is_not_found(accounts, anna):
    one = accounts.sessions.start(anna, "one", HERE)
    two = accounts.sessions.start(anna, "two", HERE)
    accounts.sessions.end(anna, one.session.id)
    with pytest.raises(Unauthenticated):
        _as_session(accounts, one.token)
    _as_session(accounts, two.token)
    with pytest.raises(SessionNotFound):
        accounts.sessions.end(anna, one.session.id)
    with pytest.raises(SessionNotFound):
        accounts.sessions.end(anna, "no-such-id")


def test_ending_all_sessions_counts_them_and_a_second_time_none(accounts, anna):
    tokens = [accounts.sessions.start(anna, "ua", HERE).token for _ in range(3)]
    assert accounts.sessions.end_all(anna) == 3
    for token in tokens:
        with pytest.raises(Unauthenticated):
            _as_session(accounts, token)
    assert accounts.sessions.end_all(anna) == 0


def test_a_request_with_the_key_needs_no_password(accounts, anna):
    accounts.sessions.confirm(anna, None, HERE)


def test_a_request_with_a_session_needs_the_right_password(accounts, anna):
    signed_in = _as_session(accounts, accounts.sessions.start(anna, "ua", HERE).token)
    with pytest.raises(PasswordRequired):
        accounts.sessions.confirm(signed_in, None, HERE)
    with pytest.raises(PasswordRequired):
        accounts.sessions.confirm(signed_in, "wrong password!", HERE)
    accounts.sessions.confirm(signed_in, PASSWORD, HERE)


def test_a_password_change_by_session_ends_all_and_opens_a_new_one(accounts, anna):
    other = accounts.sessions.start(anna, "other", HERE)
    mine = accounts.sessions.start(anna, "mine", HERE)
    signed_in = _as_session(accounts, mine.token)
    ended, fresh = accounts.sessions.set_password(
        signed_in, "a new long password", PASSWORD, "mine", HERE
    )
    assert ended == 2 and fresh is not None
    for token in (other.token, mine.token):
        with pytest.raises(Unauthenticated):
            _as_session(accounts, token)
    _as_session(accounts, fresh.token)
    accounts.sessions.sign_in("anna", "a new long password", "ua", HERE)
    with pytest.raises(SignInFailed):
        accounts.sessions.sign_in("anna", PASSWORD, "ua", HERE)


def test_a_password_change_with_the_key_opens_no_session(accounts, anna):
    accounts.sessions.start(anna, "other", HERE)
    ended, fresh = accounts.sessions.set_password(anna, "a new long password", None, "ua", HERE)
    assert (ended, fresh) == (1, None)


def test_a_weak_or_unconfirmed_password_change_changes_nothing(accounts, anna):
    mine = accounts.sessions.start(anna, "mine", HERE)
    signed_in = _as_session(accounts, mine.token)
    with pytest.raises(WeakPassword):
        accounts.sessions.set_password(signed_in, "Anna", PASSWORD, "ua", HERE)
    with pytest.raises(PasswordRequired):
        accounts.sessions.set_password(signed_in, "a new long password", "wrong!!", "ua", HERE)
    _as_session(accounts, mine.token)
    accounts.sessions.sign_in("anna", PASSWORD, "ua", HERE)


def test_a_stale_hash_is_rehashed_at_sign_in(accounts, anna, monkeypatch):
    stored = accounts.store.get("anna").password_hash
    monkeypatch.setenv("KELTIS_PASSWORD_TIME_COST", "2")
    accounts.sessions.sign_in("anna", PASSWORD, "ua", HERE)
    rehashed = accounts.store.get("anna").password_hash
    assert rehashed != stored and "t=2" in rehashed
    assert dataclasses.replace(anna, password_hash=rehashed) == accounts.store.get("anna")
