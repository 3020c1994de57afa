"""The local operator token of `keltis serve` (arenas are opened with it): var/operator.token,
made once with 192 random bits and readable by its owner only; KELTIS_OPERATOR_TOKEN set in
the environment wins."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

FILE_NAME = "operator.token"


def local_operator_token(var_dir: Path) -> str:
    """The token kept in `var_dir` (made now if there is none)."""
    path = var_dir / FILE_NAME
    if path.exists():
        return path.read_text().strip()
    token = "kop_" + secrets.token_urlsafe(24)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w") as file:
        file.write(token + "\n")
    return token
