"""One `keltis serve` per checkout: an exclusive flock on var/serve.lock, held as long as the
serve runs (the kernel drops it when the process dies, however it dies). A second serve is
refused before it touches anything under var/ (the first one's redis.url, its Redis data).

The lock file is never deleted: deleting it would let a third serve lock a new file while
the second still holds the old one.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

LOCK_FILE_NAME = "serve.lock"


class CheckoutInUse(RuntimeError):
    """Another `keltis serve` holds this checkout's var/ directory."""


class CheckoutLock:
    """The flock of one var/ directory; `release` (or the process's end) lets it go."""

    def __init__(self, var_dir: Path):
        self.path = var_dir / LOCK_FILE_NAME
        self._fd: int | None = None

    def acquire(self) -> CheckoutLock:
        """Take the lock; CheckoutInUse (naming the holder's pid) when another serve has it."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode(errors="replace").strip() or "?"
            os.close(fd)
            raise CheckoutInUse(
                f"another `keltis serve` (pid {holder}) is serving this checkout "
                f"({self.path.parent.resolve()}); stop it first, or serve from another "
                "directory"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
