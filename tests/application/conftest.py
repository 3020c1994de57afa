"""Fixtures of the application tests: accounts and games over `private_redis` (a server
only such tests write to, flushed before each test: tests.support.fixtures), the accounts'
on a clock the test moves."""

from __future__ import annotations

import pytest

from application.accounts.service import AccountService
from application.games.service import GameService
from application.webhooks.policy import WebhookPolicy
from store.core.clock import now_ms


class Clock:
    """Milliseconds that move only when the test says so."""

    def __init__(self):
        self.ms = now_ms()

    def __call__(self) -> int:
        return self.ms


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def accounts(private_redis, clock) -> AccountService:
    return AccountService(private_redis, WebhookPolicy(()), clock)


@pytest.fixture
def games(private_redis) -> GameService:
    """A service that enqueues no bot turn (the tests play them in-process)."""
    return GameService(private_redis)
