"""The use cases of accounts: sign up, profiles, webhook, key rotation, the caller's games
(passwords and sign-in sessions: application.accounts.sessions).

An account key is `kk_<secret>` (192 random bits), shown once (at sign-up or rotation) and
stored only as its SHA-256; application.accounts.auth resolves it. The webhook secret (192 random
bits) is stored as is (the webhook caller signs with it) and shown only with a new key: a
rotation renews both.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace

import orjson
import redis

from application.accounts import auth, passwords
from application.accounts.errors import AccountNotFound, NameTaken, Unauthenticated
from application.accounts.name_skeleton import skeleton
from application.accounts.reserved_names import is_reserved
from application.accounts.sessions import Sessions
from application.ladder.ratings import account_ratings
from application.webhooks.policy import WebhookPolicy
from domain.registry import game_names
from store.accounts.records import AccountRecord, AccountStore
from store.archive import listing as archive_listing
from store.archive.tier import archive_from_env
from store.core import notify
from store.core.clock import now_ms
from store.core.cursor import Position
from store.games.index import IN_PLAY

SECRET_BYTES = 24  # 192 random bits


@dataclass(frozen=True, slots=True)
class NewAccount:
    """A created account (or a rotated key) with its secrets, shown once."""

    record: AccountRecord
    key: str
    webhook_secret: str


class AccountService:
    """Accounts over the service's Redis."""

    def __init__(
        self,
        client: redis.Redis,
        policy: WebhookPolicy,
        clock: Callable[[], int] = now_ms,
    ):
        self.client = client
        self.store = AccountStore(client)
        self.policy = policy
        self.clock = clock
        self.sessions = Sessions(client, self.store, clock)

    def sign_up(
        self, name: str, bot: bool, webhook: str | None, password: str | None = None
    ) -> NewAccount:
        """A new account (with a password when one is given: WeakPassword unless it follows
        application.accounts.passwords.check_rules); NameTaken when the name is taken
        (ignoring case),
        or looks like a taken one (application.accounts.name_skeleton) or a reserved one (a built-in
        bot's, a level's, the service's words: application.accounts.reserved_names),
        WebhookNotAllowed for a webhook outside the allow-list."""
        if is_reserved(name):
            raise NameTaken(
                f"the name {name!r} is reserved: it reads as a built-in bot's, a level's or"
                " one of the service's words"
            )
        if webhook is not None:
            self.policy.check(webhook)
        if password is not None:
            passwords.check_rules(password, name)
        key, secret = auth.new_account_key(), secrets.token_urlsafe(SECRET_BYTES)
        record = AccountRecord(name, bot, webhook, auth.key_digest(key), secret, self.clock())
        if password is not None:
            record = replace(record, password_hash=passwords.hash_password(password))
        if not self.store.create(record, skeleton(name)):
            holder = self.store.skeleton_holder(skeleton(name))
            if holder is None or holder == record.folded:
                raise NameTaken(f"the name {name!r} is taken")
            shown = self.store.get(holder)
            raise NameTaken(
                f"the name {name!r} looks like the account {shown.name if shown else holder!r}"
                " (names that differ only by look-alike characters, such as I, l and 1, or"
                " 0 and O, are one name)"
            )
        return NewAccount(record, key, secret)

    def authenticate(self, key: str | None) -> AccountRecord:
        """The account of a key (Unauthenticated otherwise)."""
        return auth.account_of(self.store, key)

    def profile(self, name: str) -> dict:
        """The public profile: name, bot, games played per game."""
        record = self.store.get(name)
        if record is None:
            raise AccountNotFound("no account of this name")
        return self.public(record)

    def public(self, record: AccountRecord) -> dict:
        return {
            "name": record.name,
            "bot": record.bot,
            "created_at": record.created_at,
            "games_played": self.store.games_played(record.name, sorted(game_names())),
            "ratings": account_ratings(self.client, record.name),
            "accepts_challenges": record.accepts_challenges,
        }

    def own(self, record: AccountRecord) -> dict:
        """The owner's view: the profile, the webhook and whether a password is set (never
        the key, the secret or the password's hash)."""
        return {
            **self.public(record),
            "webhook": record.webhook,
            "has_password": record.password_hash is not None,
        }

    def update(self, record: AccountRecord, changes: dict) -> AccountRecord:
        """Apply the owner's changes (`webhook`, `accepts_challenges`), checked first."""
        webhook = changes.get("webhook")
        if webhook is not None:
            self.policy.check(webhook)
        if "webhook" in changes:
            self.store.set_webhook(record.name, webhook)
        if "accepts_challenges" in changes:
            self.store.set_accepts_challenges(record.name, changes["accepts_challenges"])
        return self.store.get(record.name) or record

    def rotate_key(self, record: AccountRecord) -> NewAccount:
        """A new key and webhook secret; the old key stops working at once, and every
        stream and long poll opened with it is told to re-check it (store.core.notify), so it
        ends within moments on every process. One-shot: of requests racing with one key,
        one rotates and the others are Unauthenticated, their key replaced under them. Every
        sign-in session ends too (a caller with a session confirmed its password first and
        hands in the record as stored)."""
        key, secret = auth.new_account_key(), secrets.token_urlsafe(SECRET_BYTES)
        if not self.store.rotate(record, auth.key_digest(key), secret):
            raise Unauthenticated("the account key is not valid (another request replaced it)")
        self.store.sessions.remove_all(record.folded)
        notify.key_replaced(self.client, record.name)
        return NewAccount(record, key, secret)

    def games(
        self, record: AccountRecord, status: str | None, after: Position | None, limit: int
    ) -> tuple[list[dict], str | None]:
        """One page of the account's games, newest first: `status` "active" lists the games
        in play (active or final round), another status filters by it, None lists all."""
        playing = status == "active"
        ids, position = self.store.game_ids(record.name, playing, after, limit)
        found = []
        summaries = archive_listing.read_summaries(self.client, archive_from_env(), ids)
        for raw in summaries:
            if raw is None:
                continue
            summary = orjson.loads(raw)
            if playing and summary["status"] not in IN_PLAY:
                continue
            if not playing and status is not None and summary["status"] != status:
                continue
            found.append(_my_game(summary, record.name))
        return found, position.encode() if position else None


def _my_game(summary: dict, name: str) -> dict:
    folded = name.lower()
    seats = [p["seat"] for p in summary["players"] if (p.get("account") or "").lower() == folded]
    to_move = summary["to_move"]
    return {
        "id": summary["id"],
        "game": summary["game"],
        "status": summary["status"],
        "version": summary["version"],
        "seats": seats,
        "to_move": to_move,
        "my_turn": summary["status"] in IN_PLAY and to_move in seats,
        "deadline": summary.get("deadline"),
        "updated_at": summary["updated_at"],
    }
