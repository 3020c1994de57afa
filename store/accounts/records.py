"""Accounts in Redis: one hash per name folded to lower case, and an index from the SHA-256
of each account key to that name. Storage only: no rule is decided here.

A name is claimed atomically (a script that writes the record only if none exists). A key
rotation swaps the index entry and the record's hash together (MULTI on a standalone Redis),
so an old key stops resolving at once.
"""

from __future__ import annotations

from dataclasses import dataclass

import redis
from redis.cluster import RedisCluster

from store import keys
from store.accounts.sessions import SessionStore, StoredSession, decoded
from store.core.codec import text, text_fields
from store.core.cursor import Pager, Position
from store.core.scripts import load_script


@dataclass(frozen=True, slots=True)
class AccountRecord:
    """One stored account. `key_hash` and `webhook_secret` never leave the server through
    a read endpoint."""

    name: str
    bot: bool
    webhook: str | None
    key_hash: str
    webhook_secret: str
    created_at: int
    accepts_challenges: str = "everyone"  # from whom: "everyone", "rated" or "nobody"
    password_hash: str | None = None  # argon2id's encoded hash; None: no password set
    # The sign-in session the record was read through (application.accounts.auth), or None
    # for the account key; `key_hash` is then that session token's hash, so a credential
    # built from the record re-checks the session, not the key.
    session: str | None = None

    @property
    def folded(self) -> str:
        return fold(self.name)


def fold(name: str) -> str:
    """The name as stored and compared: lower case."""
    return name.lower()


def _fields(record: AccountRecord) -> list[str]:
    return [
        "name", record.name,
        "bot", "1" if record.bot else "0",
        "webhook", record.webhook or "",
        "key_hash", record.key_hash,
        "webhook_secret", record.webhook_secret,
        "created_at", str(record.created_at),
        *(["password_hash", record.password_hash] if record.password_hash else []),
    ]  # fmt: skip


def _record(raw: dict) -> AccountRecord | None:
    if not raw:
        return None
    data = text_fields(raw)
    return AccountRecord(
        name=data["name"],
        bot=data["bot"] == "1",
        webhook=data.get("webhook") or None,
        key_hash=data["key_hash"],
        webhook_secret=data["webhook_secret"],
        created_at=int(data["created_at"]),
        accepts_challenges=data.get("accepts_challenges") or "everyone",
        password_hash=data.get("password_hash") or None,
    )


class AccountStore:
    """Reads and writes account records and the key-hash index."""

    def __init__(self, client: redis.Redis):
        self.client = client
        self.clustered = isinstance(client, RedisCluster)
        self.create_script = client.register_script(load_script("account_create.lua"))
        self.rotate_script = client.register_script(load_script("account_rotate.lua"))
        self.sessions = SessionStore(client)

    def create(self, record: AccountRecord, skeleton: str) -> bool:
        """Store a new account and index its key and its confusable skeleton (one script);
        False when the name (folded) or the skeleton is taken."""
        folded = record.folded
        if self.clustered:  # the keys sit on different slots: claim the skeleton, the name
            # (a skeleton claimed for a name that turns out taken names that account: its
            # skeleton is the same), then index the key
            if not self.client.set(keys.account_skeleton(skeleton), folded, nx=True):
                return False
            if not self.create_script(keys=[keys.account(folded)], args=[*_fields(record), ""]):
                return False
            self.client.set(keys.account_key(record.key_hash), folded)
            return True
        script_keys = [
            keys.account(folded),
            keys.account_key(record.key_hash),
            keys.account_skeleton(skeleton),
        ]
        return bool(self.create_script(keys=script_keys, args=[*_fields(record), folded]))

    def skeleton_holder(self, skeleton: str) -> str | None:
        """The folded name of the account holding a confusable skeleton, or None."""
        found = self.client.get(keys.account_skeleton(skeleton))
        return None if found is None else text(found)

    def index_skeletons(self, skeleton_of) -> int:
        """Index the skeleton (`skeleton_of(name)`) of every stored account that has none
        indexed (accounts from before skeletons); where two share one, the first keeps it.
        How many were indexed."""
        indexed = 0
        for key in self.client.scan_iter(match=keys.account_pattern(), count=500):
            name = self.client.hget(key, "name")
            if name is None:
                continue
            name = text(name)
            if self.client.set(keys.account_skeleton(skeleton_of(name)), fold(name), nx=True):
                indexed += 1
        return indexed

    def get(self, name: str) -> AccountRecord | None:
        """The account of `name` (any case), or None."""
        return _record(self.client.hgetall(keys.account(fold(name))))

    def get_with_session(
        self, name: str, token_hash: str
    ) -> tuple[AccountRecord | None, StoredSession | None]:
        """The account of `name` and its session of that token hash (one round trip)."""
        folded = fold(name)
        pipe = self.client.pipeline(transaction=False)
        pipe.hgetall(keys.account(folded))
        pipe.hget(keys.account_sessions(folded), token_hash)
        raw, session = pipe.execute()
        return _record(raw), None if session is None else decoded(token_hash, session)

    def bot_flags(self, names: list[str]) -> dict[str, bool]:
        """Folded name -> whether it is a bot account, for each of `names` that exists."""
        folded = [fold(name) for name in names]
        pipe = self.client.pipeline(transaction=False)
        for name in folded:
            pipe.hget(keys.account(name), "bot")
        found = pipe.execute() if folded else []
        pairs = zip(folded, found, strict=True)
        return {name: text(bot) == "1" for name, bot in pairs if bot is not None}

    def name_of_key(self, key_hash: str) -> str | None:
        """The folded name the key hash is indexed to, or None."""
        found = self.client.get(keys.account_key(key_hash))
        return None if found is None else text(found)

    def set_webhook(self, name: str, webhook: str | None) -> None:
        self.client.hset(keys.account(fold(name)), "webhook", webhook or "")

    def set_accepts_challenges(self, name: str, whom: str) -> None:
        self.client.hset(keys.account(fold(name)), "accepts_challenges", whom)

    def set_password_hash(self, name: str, password_hash: str) -> None:
        self.client.hset(keys.account(fold(name)), "password_hash", password_hash)

    def rotate(self, record: AccountRecord, key_hash: str, webhook_secret: str) -> bool:
        """Replace the account's key (its hash) and webhook secret if it still holds
        `record.key_hash` (one script, with the key-hash index on standalone Redis); False
        when another rotation replaced that key first."""
        folded = record.folded
        args = [record.key_hash, key_hash, webhook_secret, folded]
        if self.clustered:  # the index entries sit on other slots: moved once the record is
            if not self.rotate_script(keys=[keys.account(folded)], args=args):
                return False
            self.client.delete(keys.account_key(record.key_hash))
            self.client.set(keys.account_key(key_hash), folded)
            return True
        script_keys = [
            keys.account(folded),
            keys.account_key(record.key_hash),
            keys.account_key(key_hash),
        ]
        return bool(self.rotate_script(keys=script_keys, args=args))

    def games_played(self, name: str, games: list[str]) -> dict[str, int]:
        """How many games of each of `games` the account holds a seat in."""
        folded = fold(name)
        pipe = self.client.pipeline(transaction=False)
        for game in games:
            pipe.zcard(keys.account_games_of(folded, game))
        return dict(zip(games, pipe.execute(), strict=True))

    def game_ids(
        self, name: str, playing: bool, after: Position | None, limit: int
    ) -> tuple[list[str], Position | None]:
        """One page of the account's game ids after a cursor position, newest first (only
        those in play when `playing`), and the position to go on from (store.core.cursor)."""
        folded = fold(name)
        key = keys.account_playing(folded) if playing else keys.account_games(folded)
        return Pager(self.client).page(key, after, limit)
