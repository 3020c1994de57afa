"""Sign-in with a name and a password, and the sessions it opens.

A session's token `ks_<secret>` (256 random bits) is shown once, at sign-in, and stored only
as its SHA-256 (store.accounts.sessions); application.accounts.auth resolves it wherever an
account key is taken. A session may do what the key does, but for three things, which need
the password given again: replace the key, change the webhook, change the password. Sessions
end when revoked (one, or all: "sign out everywhere"), when the key is replaced or the
password changed (all of them), or after KELTIS_SESSION_IDLE_S unused (30 days). An account
keeps at most MAX_SESSIONS; a new one beyond ends the least recently used.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

import redis

from application.accounts import auth, passwords
from application.accounts.errors import PasswordRequired, SessionNotFound, SignInFailed
from application.accounts.sign_in_limits import count_attempt
from store.accounts.records import AccountRecord, AccountStore
from store.accounts.sessions import StoredSession
from store.core import notify
from store.core.clock import now_ms

MAX_SESSIONS = 20
USER_AGENT_CHARS = 200
WRONG = "the name or the password is wrong"


@dataclass(frozen=True, slots=True)
class NewSession:
    """A session just opened, with its token (shown once)."""

    name: str
    token: str
    session: StoredSession


class Sessions:
    """Sign-in, passwords and sessions over the service's Redis."""

    def __init__(self, client: redis.Redis, store: AccountStore, clock: Callable[[], int] = now_ms):
        self.client = client
        self.store = store
        self.clock = clock
        self.attempt_clock = time.time  # the sign-in limits' fixed windows

    def sign_in(self, name: str, password: str, user_agent: str, address: str) -> NewSession:
        """A new session of the account `name` when `password` is its password;
        SignInLimited over the attempts' limits, else SignInFailed for a wrong name and a
        wrong password alike (a dummy hash verified for an unknown name: the same time)."""
        count_attempt(self.client, name, address, self.attempt_clock)
        record = self.store.get(name)
        stored = record.password_hash if record else None
        if not passwords.verify(stored, password) or record is None or stored is None:
            raise SignInFailed(WRONG)
        if passwords.needs_rehash(stored):  # the cost setting changed since it was hashed
            self.store.set_password_hash(record.name, passwords.hash_password(password))
        return self.start(record, user_agent, address)

    def start(self, record: AccountRecord, user_agent: str, address: str) -> NewSession:
        """Open a session of the account (ending its least recently used beyond
        MAX_SESSIONS)."""
        now = self.clock()
        token = auth.new_session_token()
        session = StoredSession(
            token_hash=auth.key_digest(token),
            id=secrets.token_hex(8),
            created_at=now,
            last_used_at=now,
            user_agent=user_agent[:USER_AGENT_CHARS],
            address=address,
        )
        held = self.store.sessions.all(record.folded)
        if len(held) >= MAX_SESSIONS:
            held.sort(key=lambda s: s.last_used_at)
            stale = [s.token_hash for s in held[: len(held) - MAX_SESSIONS + 1]]
            self._end(record, stale)
        self.store.sessions.add(record.folded, session, auth.session_idle_ms())
        return NewSession(record.name, token, session)

    def listed(self, record: AccountRecord) -> list[dict]:
        """The account's live sessions, oldest first, the caller's own marked `current`;
        no secret (the token's hash stays in Redis). Expired ones are ended on the way."""
        now, idle_ms = self.clock(), auth.session_idle_ms()
        found = self.store.sessions.all(record.folded)
        expired = [s.token_hash for s in found if now - s.last_used_at > idle_ms]
        self.store.sessions.remove(record.folded, expired)
        return [
            {
                "id": s.id,
                "created_at": s.created_at,
                "last_used_at": s.last_used_at,
                "user_agent": s.user_agent,
                "address": s.address,
                "current": s.id == record.session,
            }
            for s in found
            if s.token_hash not in expired
        ]

    def end(self, record: AccountRecord, session_id: str) -> None:
        """End one session of the account (SessionNotFound when it has none of that id)."""
        held = self.store.sessions.all(record.folded)
        chosen = [s.token_hash for s in held if s.id == session_id]
        if not chosen or not self._end(record, chosen):
            raise SessionNotFound("the account has no session of this id")

    def end_all(self, record: AccountRecord) -> int:
        """End every session of the account, the caller's own too; how many ended."""
        return self._end(record, [s.token_hash for s in self.store.sessions.all(record.folded)])

    def _end(self, record: AccountRecord, token_hashes: list[str]) -> int:
        ended = self.store.sessions.remove(record.folded, token_hashes)
        if token_hashes:  # held requests opened with them re-check at once
            notify.key_replaced(self.client, record.name)
        return ended

    def confirm(self, record: AccountRecord, password: str | None, address: str) -> None:
        """For a request made with a session: PasswordRequired unless `password` is the
        account's (an attempt counted like a sign-in's). A request made with the key passes."""
        if record.session is None:
            return
        if password is None:
            raise PasswordRequired("a signed-in session needs the password again for this")
        count_attempt(self.client, record.name, address, self.attempt_clock)
        stored = self.store.get(record.name)
        if stored is None or not passwords.verify(stored.password_hash, password):
            raise PasswordRequired("the password is wrong")

    def set_password(
        self,
        record: AccountRecord,
        password: str,
        current: str | None,
        user_agent: str,
        address: str,
    ) -> tuple[int, NewSession | None]:
        """Set the account's password (the key, or a session with the current password);
        every session ends. How many ended, and a new session for a caller that signed in
        with one (so this browser stays signed in)."""
        passwords.check_rules(password, record.name)
        self.confirm(record, current, address)
        self.store.set_password_hash(record.name, passwords.hash_password(password))
        ended = self.end_all(record)
        fresh = self.start(record, user_agent, address) if record.session else None
        return ended, fresh
