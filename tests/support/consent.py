"""Consent for tests that seat accounts through the service itself, as the service's own
callers do (an accepted challenge, a seek's pairing, an arena entry): an account is seated
only with its consent (application.games.service)."""

from __future__ import annotations


def consent(*names: str) -> frozenset[str]:
    """`GameService.create`'s `consenting`: these accounts asked for the game themselves."""
    return frozenset(name.lower() for name in names)
