"""Fixtures of the API tests: an app over the real test Redis, a contract-checking client."""

from __future__ import annotations

import pytest

from tests.store import toy_game


@pytest.fixture
def toy(monkeypatch) -> str:
    """Register the throwaway test game; its name."""
    return toy_game.register(monkeypatch)


@pytest.fixture
def app(app, toy):
    """The shared app, with the throwaway test game registered too."""
    return app
