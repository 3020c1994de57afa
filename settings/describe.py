"""The settings as people read them: the effective values with secrets masked and where
each came from (`keltis config`), and the reference page docs/CONFIGURATION.md."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from settings.fields import VARS, Var
from settings.model import Settings

MASK = "***"
HEADER = """\
# Configuration

<!-- Generated from settings/fields.py by `keltis config --markdown`: edit that, not this
file (tests/settings/test_configuration_doc.py keeps the two equal). -->

The service reads these environment variables, once per process, into one settings object
(`settings.current()`); a value outside its allowed range stops the process with an error
naming the variable. `keltis config` prints the effective values (secrets masked) and where
each came from. [Operations](OPERATIONS.md) explains how the settings work together.

| Variable | Default | Allowed | Description |
|---|---|---|---|
"""


def masked_url(url: str) -> str:
    """`url` with the password of its user part replaced by the mask."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port is not None else ""
    return urlunsplit(parts._replace(netloc=f"{user}:{MASK}@{host}{port}"))


def shown(var: Var, value: object) -> str:
    """One value as text: unset as `-`, lists comma-joined, secrets masked (a URL keeps
    everything but its password)."""
    if value is None or value == "" or value == ():
        return "-"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, tuple):
        return ",".join(str(part) for part in value)
    if var.secret:
        return masked_url(value) if "://" in str(value) else MASK
    return str(value)


def table(settings: Settings) -> str:
    """One line per variable: its name, effective value and source."""
    rows = [
        (var.name, shown(var, getattr(settings, var.attr)), settings.sources[var.name])
        for var in VARS
    ]
    width = max(len(name) for name, _, _ in rows)
    value_width = max(len(value) for _, value, _ in rows)
    return "\n".join(
        f"{name:<{width}}  {value:<{value_width}}  ({source})" for name, value, source in rows
    )


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown() -> str:
    """The reference page: every variable with its default, allowed values, description."""
    lines = [
        f"| `{var.name}` | {_cell(shown(var, var.default))} | {_cell(var.allowed)} | "
        f"{_cell(var.description)}{' (secret)' if var.secret else ''} |"
        for var in VARS
    ]
    return HEADER + "\n".join(lines) + "\n"
