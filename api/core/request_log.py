"""Where the JSON request lines (api.core.observe) go, from KELTIS_REQUEST_LOG: `on` or `stderr`
(the default), `off`, or a file path (appended to; `keltis serve` uses var/requests.log).

Each line is written with one write(2): on stderr a line under the pipe buffer's size goes
out whole, and a file opened with O_APPEND takes each line whole at its end, so the lines
of several processes never interleave. A failed write drops the line: a log line never
fails a request. A rotated file is best truncated in place (logrotate's `copytruncate`).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable

import settings

SETTING = "KELTIS_REQUEST_LOG"
OFF = "off"
STDERR = frozenset({"on", "stderr", ""})

Sink = Callable[[bytes], object]


def to_stderr(line: bytes) -> None:
    """Write one line to stderr in one system call."""
    with contextlib.suppress(OSError):
        os.write(2, line)


def to_file(path: str) -> Sink:
    """A sink appending each line to the file at `path` (created when missing)."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)

    def write(line: bytes) -> None:
        with contextlib.suppress(OSError):
            os.write(fd, line)

    return write


def sink_of(setting: str) -> Sink | None:
    """The sink a KELTIS_REQUEST_LOG value names (None: `off`)."""
    setting = setting.strip()
    if setting.lower() == OFF:
        return None
    if setting.lower() in STDERR:
        return to_stderr
    return to_file(setting)


def setting() -> str:
    """This process's KELTIS_REQUEST_LOG (default: stderr)."""
    return settings.current().request_log
