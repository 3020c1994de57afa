"""Commands that a test stops with Ctrl-C's signal (SIGINT to their process group)."""

from __future__ import annotations

import sys

# A shell started in the background (a CI runner's, `make test &`) hands its children SIGINT
# ignored; neither a shell nor Python undoes an ignore it was started with, so a test's
# Ctrl-C would never arrive. This runs the command with SIGINT at its default.
_DEFAULT_SIGINT = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execvp(sys.argv[1], sys.argv[1:])"
)


def ctrl_c_reaches(command: list[str]) -> list[str]:
    """`command`, started so that a SIGINT sent to it is a Ctrl-C whatever its parent ignores."""
    return [sys.executable, "-c", _DEFAULT_SIGINT, *command]
