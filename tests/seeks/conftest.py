"""Fixtures of the seek tests: the pool's keys are global (like the ladder's), so these tests
use `private_redis` (a server of their own, flushed before each test); a fixed clock the
tests move by hand (no sleeps); accounts; and a way to hold an account's stream slot."""

from __future__ import annotations

import pytest

from application.accounts.service import AccountService
from application.games.service import GameService
from application.seeks.service import SeekBounds, open_seek
from application.seeks.worker_pass import PairingPass, PoolSettings
from application.webhooks.policy import WebhookPolicy, parse_allow
from store import keys

CARD = "keltis-card"
START_MS = 1_900_000_000_000


class FixedClock:
    """The pool's clock: moved by the test."""

    def __init__(self, ms: int = START_MS):
        self.ms = ms

    def __call__(self) -> int:
        return self.ms

    def advance(self, seconds: float) -> None:
        self.ms += int(seconds * 1000)


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock()


@pytest.fixture
def games(private_redis, clock) -> GameService:
    """A service that enqueues no bot turn, on the fixed clock."""
    return GameService(private_redis, clock=clock)


@pytest.fixture
def accounts(private_redis) -> AccountService:
    return AccountService(private_redis, WebhookPolicy(parse_allow("127.0.0.0/8")))


class Pool:
    """Accounts that seek, listen and get paired in-process."""

    def __init__(self, games: GameService, accounts: AccountService, clock: FixedClock):
        self.games, self.accounts, self.clock = games, accounts, clock
        self.records = {}

    def account(self, name: str, webhook: str | None = None, listening: bool = True):
        record = self.accounts.sign_up(name, bot=False, webhook=webhook).record
        self.records[name] = record
        if listening:
            self.listen(name)
        return record

    def listen(self, name: str) -> None:
        """Hold a stream slot of the account (as GET /v1/me/events does) for an hour."""
        self.games.client.zadd(
            keys.account_streams(name.lower()), {f"s-{name}": self.clock() + 3_600_000}
        )

    def hang_up(self, name: str) -> None:
        self.games.client.delete(keys.account_streams(name.lower()))

    def seek(
        self, name: str, bounds: SeekBounds | None = None, address=None, rules=None, **request
    ):
        """Open a seek of `name`, from its own address unless `address` says (one address
        per account: the pool never pairs two accounts of one address); `rules`: the pairing
        rules its answer's pool bots follow (default: the settings')."""
        if address is None:
            address = f"10.0.0.{list(self.records).index(name) + 1}"
        body = {"game": CARD, "players": 2, "rated": True, "max_games": 1, **request}
        bounds = bounds or SeekBounds()
        return open_seek(
            self.games, self.records[name], body, address, bounds, self.accounts.policy, rules
        )

    def pairing(self, settings: PoolSettings | None = None, **options) -> PairingPass:
        options.setdefault("policy", self.accounts.policy)
        return PairingPass(self.games, settings or PoolSettings(), **options)

    def run(self, settings: PoolSettings | None = None, **options):
        return self.pairing(settings, **options).run()


@pytest.fixture
def pool(games, accounts, clock) -> Pool:
    return Pool(games, accounts, clock)
