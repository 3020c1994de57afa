"""The credential a held request (a stream, a long poll) was opened with, re-checked while it
is held: an account key stops working at once when it is replaced (POST /v1/me/key), so a
stream or long poll opened with it ends instead of sending on.

A game token is issued once per seat (at creation or a join of an open seat) and no endpoint
replaces it, so a request opened with one (or with none) has nothing to re-check. An account
key is re-checked by one read of its key-hash index entry, which the replacement deletes
(store.accounts.records.rotate); a sign-in session's token alike, by its entry in the same
index, which ending the session deletes (store.accounts.sessions). The account's notification
channel carries a hint when its key is replaced or a session ends
(store.core.notify.key_replaced), so a holder re-checks at once rather than at its next
keep-alive; the check, not the hint, decides.
"""

from __future__ import annotations

from dataclasses import dataclass

from application.accounts import auth
from store import keys
from store.accounts.records import AccountStore


@dataclass(frozen=True, slots=True)
class Credential:
    """An account key (its hash and the account's folded name), or nothing to re-check."""

    key_hash: str | None = None
    account: str | None = None

    @property
    def channels(self) -> tuple[str, ...]:
        """The notification channels that tell of its replacement."""
        return (keys.account_channel(self.account),) if self.account else ()

    def valid(self, store: AccountStore) -> bool:
        """Whether it still works (one read for an account key, none otherwise)."""
        if self.key_hash is None:
            return True
        return store.name_of_key(self.key_hash) == self.account


NONE = Credential()


def credential_of(store: AccountStore, token: str | None) -> Credential:
    """The credential of a bearer token the request was already authenticated with: an
    account key's (Unauthenticated when it no longer resolves), else NONE."""
    if not auth.is_account_key(token):
        return NONE
    record = auth.account_of(store, token)
    return Credential(record.key_hash, record.folded)
