"""Fixtures of the API tests: an app over the real test Redis, a contract-checking client."""

from __future__ import annotations

import pytest

from api import create_app
from tests.api.contract import ContractClient
from tests.store import toy_game


@pytest.fixture
def toy(monkeypatch) -> str:
    """Register the throwaway test game; its name."""
    return toy_game.register(monkeypatch)


@pytest.fixture
def app(redis_url, toy):
    app = create_app({"REDIS_URL": redis_url, "TESTING": True})
    app.test_client_class = ContractClient
    return app


@pytest.fixture
def client(app):
    return app.test_client()
