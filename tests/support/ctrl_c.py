"""Commands that a test stops with Ctrl-C's signal (SIGINT to their process group)."""

from __future__ import annotations

import sys

# A shell without job control starts background commands with SIGINT ignored, and their
# children inherit it: bash cannot undo an ignore it was started with, and Python installs
# its Ctrl-C handler only over the default, so a test's Ctrl-C would never arrive. This
# sets SIGINT back to its default, then runs the command in the same process.
_DEFAULT_SIGINT = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execvp(sys.argv[1], sys.argv[1:])"
)


def ctrl_c_reaches(command: list[str]) -> list[str]:
    """`command`, started so that a SIGINT sent to it is a Ctrl-C whatever its parent ignores."""
    return [sys.executable, "-c", _DEFAULT_SIGINT, *command]
