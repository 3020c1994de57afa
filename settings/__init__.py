"""The service's settings: every environment variable it reads, typed and checked once per
process (`current()`); `reload()` reads them again. It imports nothing of the project, so
every layer may use it."""

from __future__ import annotations

import os

from settings.fields import VARS, Var
from settings.model import DEFAULT, ENVIRONMENT, Settings, from_env
from settings.parsing import SettingsError

__all__ = [
    "DEFAULT", "ENVIRONMENT", "VARS", "Settings", "SettingsError", "Var", "current",
    "from_env", "reload", "track_environment",
]  # fmt: skip

_NAMES = tuple(var.name for var in VARS)
_current: Settings | None = None
_seen: tuple | None = None
_tracking = False


def current() -> Settings:
    """This process's settings, read on first use (SettingsError for a refused value)."""
    global _current, _seen
    if _tracking:
        seen = tuple(map(os.environ.get, _NAMES))
        if seen != _seen:
            _current, _seen = None, seen
    if _current is None:
        _current = from_env()
    return _current


def reload() -> None:
    """Forget the settings read: the next `current()` reads the environment again."""
    global _current, _seen
    _current, _seen = None, None


def track_environment(on: bool = True) -> None:
    """Re-read the settings whenever one of their variables changed (for the tests, which
    change the environment while a process runs; a service reads it once)."""
    global _tracking
    _tracking = on
    reload()
