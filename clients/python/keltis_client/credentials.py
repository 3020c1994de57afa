"""An account's key (and webhook secret) saved in a file only its owner may read (0600)."""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from urllib.parse import urlsplit


@dataclass(frozen=True, slots=True)
class Credentials:
    """What sign-up shows only once: the account key and its webhook secret."""

    server: str
    name: str
    key: str
    webhook_secret: str | None = None


def config_dir() -> Path:
    """`$XDG_CONFIG_HOME/keltis`, else `~/.config/keltis`."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "keltis"


def default_path(server: str, name: str) -> Path:
    """`<config dir>/<host>-<port>-<name>.json`: one file per server and account."""
    parts = urlsplit(server)
    host = parts.hostname or "localhost"
    port = parts.port or (443 if parts.scheme == "https" else 80)
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", f"{host}-{port}-{name}")
    return config_dir() / f"{safe}.json"


def load(path: str | os.PathLike[str]) -> Credentials | None:
    """The saved credentials, or None when the file does not exist."""
    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        return None
    return Credentials(
        server=data["server"],
        name=data["name"],
        key=data["key"],
        webhook_secret=data.get("webhook_secret"),
    )


def save(credentials: Credentials, path: str | os.PathLike[str]) -> Path:
    """Write atomically (a temporary file renamed over), readable by the owner only."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as file:
        json.dump(asdict(credentials), file, indent=1)
        file.write("\n")
    os.chmod(temporary, 0o600)
    os.replace(temporary, target)
    return target
