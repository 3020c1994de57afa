"""Counts of the archive tier's moves: each goes to the metrics endpoint
(`keltis_archive_games_total{outcome}`, application.metrics) and to any subscribed listener."""

from __future__ import annotations

from collections.abc import Callable

from application import metrics

Listener = Callable[[str, int], None]
_listeners: list[Listener] = []


def subscribe(listener: Listener) -> None:
    """Call `listener(outcome, n)` for each count (outcome: an application.archive Outcome
    value, or "skipped" for a game whose log could not be archived)."""
    if listener not in _listeners:
        _listeners.append(listener)


def unsubscribe(listener: Listener) -> None:
    if listener in _listeners:
        _listeners.remove(listener)


def count(outcome: str, n: int = 1) -> None:
    """Count `n` games that had `outcome`, and tell every listener."""
    metrics.archived(outcome, n)
    for listener in list(_listeners):
        listener(outcome, n)
