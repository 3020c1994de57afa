"""Sign-in sessions in Redis: per account, a hash from the SHA-256 of each session token to
its record, and the token's entry in the credential index the account key uses (so a held
request opened with a session re-checks it as it re-checks a key). Storage only.

The index entry expires when the session has been idle for its lifetime; each use renews it
(application.accounts.auth, at most once a minute). Ending a session deletes its index entry
first: from then on the token resolves to nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import orjson
import redis

from store import keys
from store.core.codec import text
from store.core.scripts import load_script


@dataclass(frozen=True, slots=True)
class StoredSession:
    """One session: its token's hash (never shown), a public id, when it began and was last
    used (ms), and the browser and address it began from."""

    token_hash: str
    id: str
    created_at: int
    last_used_at: int
    user_agent: str
    address: str

    def encoded(self) -> bytes:
        return orjson.dumps(
            {
                "id": self.id,
                "created_at": self.created_at,
                "last_used_at": self.last_used_at,
                "user_agent": self.user_agent,
                "address": self.address,
            }
        )


def decoded(token_hash: str, raw) -> StoredSession:
    data = orjson.loads(raw)
    return StoredSession(
        token_hash=token_hash,
        id=data["id"],
        created_at=int(data["created_at"]),
        last_used_at=int(data["last_used_at"]),
        user_agent=data.get("user_agent") or "",
        address=data.get("address") or "",
    )


class SessionStore:
    """Reads and writes one service's sign-in sessions."""

    def __init__(self, client: redis.Redis):
        self.client = client
        self.touch_script = client.register_script(load_script("session_touch.lua"))

    def add(self, folded: str, session: StoredSession, idle_ms: int) -> None:
        """Store a new session and index its token for `idle_ms`."""
        pipe = self.client.pipeline(transaction=False)
        pipe.hset(keys.account_sessions(folded), session.token_hash, session.encoded())
        pipe.pexpire(keys.account_sessions(folded), idle_ms)
        pipe.set(keys.account_key(session.token_hash), folded, px=idle_ms)
        pipe.execute()

    def get(self, folded: str, token_hash: str) -> StoredSession | None:
        raw = self.client.hget(keys.account_sessions(folded), token_hash)
        return None if raw is None else decoded(token_hash, raw)

    def touch(self, folded: str, session: StoredSession, idle_ms: int) -> None:
        """Write the session's new last use, only while it exists (a revocation that came
        first stays), and renew its index entry and the account's hash."""
        self.touch_script(
            keys=[keys.account_sessions(folded)],
            args=[session.token_hash, session.encoded(), idle_ms],
        )
        self.client.pexpire(keys.account_key(session.token_hash), idle_ms)

    def all(self, folded: str) -> list[StoredSession]:
        """Every stored session of the account (expired ones too), oldest first."""
        raw = self.client.hgetall(keys.account_sessions(folded))
        found = [decoded(text(token_hash), value) for token_hash, value in raw.items()]
        return sorted(found, key=lambda s: (s.created_at, s.id))

    def remove(self, folded: str, token_hashes: list[str]) -> int:
        """End these sessions: their index entries first, then their records; how many
        records there were."""
        if not token_hashes:
            return 0
        pipe = self.client.pipeline(transaction=False)
        for token_hash in token_hashes:
            pipe.delete(keys.account_key(token_hash))
        pipe.execute()
        return int(self.client.hdel(keys.account_sessions(folded), *token_hashes))

    def remove_all(self, folded: str) -> int:
        """End every session of the account; how many there were."""
        return self.remove(folded, [s.token_hash for s in self.all(folded)])
