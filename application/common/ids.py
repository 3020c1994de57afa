"""Random public ids: URL-safe, and never taken for an option on a command line."""

from __future__ import annotations

import secrets


def random_id(nbytes: int) -> str:
    """`nbytes` random bytes as URL-safe base64. An id beginning with "-" would read as an
    option to `keltis arena close <id>` and the like, so such a draw is drawn again (which
    costs under 0.03 of a bit)."""
    while True:
        candidate = secrets.token_urlsafe(nbytes)
        if not candidate.startswith("-"):
            return candidate
