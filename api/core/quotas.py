"""Per-client quotas on what lasts: games and tournaments created (fixed windows of the
`limits` library, counted in the service's Redis) and games waiting for seats.

The client is the request's remote address, as for the rate limit (api.core.ratelimit).
Configuration (a limits string such as "60 per minute;1000 per day", or "off"):
KELTIS_QUOTA_GAMES, KELTIS_QUOTA_TOURNAMENTS, KELTIS_QUOTA_ACCOUNTS (sign-ups, default
"10 per hour"), and KELTIS_QUOTA_WAITING_GAMES (how many games one client may have
waiting for seats at once; 0 or "off" for none);
KELTIS_QUOTAS=off switches them all off. QUOTA_* keys in test_config override them; apps
made with TESTING=True have no quotas unless QUOTAS_ENABLED is given. A refused request
gets 429 `quota_exceeded` with Retry-After.
"""

from __future__ import annotations

import math
import time

import orjson
import redis
from flask import Flask, current_app
from limits import RateLimitItem, parse_many
from limits.storage import Storage
from limits.strategies import FixedWindowRateLimiter

import settings
from api.core import extensions
from api.core.auth import client_address
from api.core.ratelimit import counter_storage, storage_uri
from application.operations.sweep import expiry_s
from domain.errors import KeltisError, Kind
from gamelog.record import GameRecord, Status
from store import keys
from store.core.codec import text

OFF = "off"
EXTENSION = "keltis_quotas"


class QuotaExceeded(KeltisError):
    """The client used up a quota (429, Retry-After: seconds until it frees up)."""

    code = "quota_exceeded"
    kind = Kind.RATE_LIMITED

    def __init__(self, message: str, retry_after_s: float):
        super().__init__(message)
        self.retry_after_s = max(1, math.ceil(retry_after_s))


class Quotas:
    """The quotas of one app and where they are counted."""

    def __init__(
        self,
        games: list[RateLimitItem],
        tournaments: list[RateLimitItem],
        max_waiting: int,
        storage: Storage,
        client: redis.Redis,
        accounts: list[RateLimitItem] | None = None,
    ):
        self.accounts = sorted(accounts or [])
        self.games = sorted(games)
        self.tournaments = sorted(tournaments)
        self.max_waiting = max_waiting
        self.counter = FixedWindowRateLimiter(storage)
        self.client = client

    def count(self, what: str, limits: list[RateLimitItem], client_id: str) -> None:
        """Count one creation of `what`; QuotaExceeded when over a limit."""
        for limit in limits:
            if not self.counter.hit(limit, keys.quota_prefix(), what, client_id):
                stats = self.counter.get_window_stats(limit, keys.quota_prefix(), what, client_id)
                raise QuotaExceeded(
                    f"quota of {what} created per client used up: {limit}",
                    stats.reset_time - time.time(),
                )

    def check_waiting(self, client_id: str) -> None:
        """QuotaExceeded when the client already has `max_waiting` games waiting for seats."""
        key = keys.client_waiting_games(client_id)
        held = self.client.zrange(key, 0, -1, withscores=True)
        if len(held) < self.max_waiting:
            return
        ids = [text(game_id) for game_id, _ in held]
        summaries = self.client.hmget(keys.game_summaries(), ids)
        gone = [
            game_id
            for game_id, raw in zip(ids, summaries, strict=True)
            if raw is not None and orjson.loads(raw)["status"] != Status.WAITING
        ]
        if gone:
            self.client.zrem(key, *gone)
        waiting = [score for (game_id, score) in held if text(game_id) not in gone]
        if len(waiting) >= self.max_waiting:
            frees_at_ms = min(waiting) + expiry_s() * 1000
            raise QuotaExceeded(
                f"at most {self.max_waiting} games of one client may wait for seats; "
                "start or let one expire first",
                frees_at_ms / 1000 - time.time(),
            )

    def note_waiting(self, client_id: str, record: GameRecord) -> None:
        """Count a new game that waits for seats against the client."""
        key = keys.client_waiting_games(client_id)
        pipe = self.client.pipeline(transaction=False)
        pipe.zadd(key, {record.game_id: record.created_at})
        pipe.expire(key, math.ceil(expiry_s()) + 60)
        pipe.execute()


def _active() -> Quotas | None:
    return current_app.extensions.get(EXTENSION)


def game_requested(players: list[dict]) -> None:
    """Before a game is created: count it; check the waiting quota if a seat is open."""
    quotas = _active()
    if quotas is None:
        return
    if quotas.max_waiting and any(p.get("open") for p in players):
        quotas.check_waiting(client_address())
    quotas.count("games", quotas.games, client_address())


def game_created(record: GameRecord) -> None:
    """After a game was created: a game waiting for seats counts against its client."""
    quotas = _active()
    if quotas is not None and quotas.max_waiting and record.status is Status.WAITING:
        quotas.note_waiting(client_address(), record)


def tournament_requested() -> None:
    """Before a tournament is created: count it."""
    quotas = _active()
    if quotas is not None:
        quotas.count("tournaments", quotas.tournaments, client_address())


def account_requested() -> None:
    """Before an account is created: count the sign-up."""
    quotas = _active()
    if quotas is not None:
        quotas.count("accounts", quotas.accounts, client_address())


def _limits(setting: str) -> list[RateLimitItem]:
    setting = str(setting).strip()
    return [] if setting.lower() == OFF else parse_many(setting)


def _waiting(setting) -> int:
    setting = str(setting).strip()
    return 0 if setting.lower() == OFF else int(setting)


def init_app(app: Flask) -> None:
    """Enforce the quotas in `app` (settings already in app.config win)."""
    configured = settings.current()
    app.config.setdefault("QUOTAS_ENABLED", configured.quotas and not app.testing)
    app.config.setdefault("QUOTA_GAMES", configured.quota_games)
    app.config.setdefault("QUOTA_TOURNAMENTS", configured.quota_tournaments)
    app.config.setdefault("QUOTA_ACCOUNTS", configured.quota_accounts)
    app.config.setdefault("QUOTA_WAITING_GAMES", configured.quota_waiting_games)
    if not app.config["QUOTAS_ENABLED"]:
        return
    store = app.extensions[extensions.EXTENSION].client
    app.extensions[EXTENSION] = Quotas(
        _limits(app.config["QUOTA_GAMES"]),
        _limits(app.config["QUOTA_TOURNAMENTS"]),
        _waiting(app.config["QUOTA_WAITING_GAMES"]),
        counter_storage(app, storage_uri(app.config["REDIS_URL"])),
        store,
        _limits(app.config["QUOTA_ACCOUNTS"]),
    )
