"""The credential a held request re-checks (application.accounts.credentials): an account
key's works until it is replaced, a game token or none has nothing to re-check, and a
notice of a key's replacement is told apart from other notices."""

from __future__ import annotations

import pytest

from application.accounts.credentials import NONE, Credential, credential_of
from application.accounts.errors import Unauthenticated
from store import keys


def test_an_account_keys_credential_names_the_account_and_its_channel(accounts):
    made = accounts.sign_up("Anna", bot=False, webhook=None)
    credential = credential_of(accounts.store, made.key)
    assert credential == Credential(made.record.key_hash, "anna")
    assert credential.channels == (keys.account_channel("anna"),)
    assert credential.valid(accounts.store)


def test_the_credential_stops_working_once_the_key_is_replaced(accounts):
    made = accounts.sign_up("anna", bot=False, webhook=None)
    credential = credential_of(accounts.store, made.key)
    fresh = accounts.rotate_key(made.record)
    assert not credential.valid(accounts.store)
    assert credential_of(accounts.store, fresh.key).valid(accounts.store)


def test_a_replaced_or_unknown_key_has_no_credential(accounts):
    made = accounts.sign_up("anna", bot=False, webhook=None)
    accounts.rotate_key(made.record)
    with pytest.raises(Unauthenticated):
        credential_of(accounts.store, made.key)
    with pytest.raises(Unauthenticated):
        credential_of(accounts.store, "kk_" + "A" * 43)


def test_a_sessions_credential_ends_with_the_session(accounts):
    made = accounts.sign_up("anna", bot=False, webhook=None)
    opened = accounts.sessions.start(made.record, "pytest", "127.0.0.1")
    credential = credential_of(accounts.store, opened.token)
    assert credential.account == "anna" and credential.valid(accounts.store)
    accounts.sessions.end_all(made.record)
    assert not credential.valid(accounts.store)


@pytest.mark.parametrize("token", [None, "gt_not_an_account_key", "some.game.token"])
def test_a_game_token_or_none_has_nothing_to_recheck(accounts, token):
    credential = credential_of(accounts.store, token)
    assert credential is NONE
    assert credential.channels == ()
    assert credential.valid(accounts.store)
