"""One redaction rule for the events of every game (R2).

Convention: an event is a JSON-ready dict. Fields that not everyone may know live under
`"hidden"`. If the event has an `"owner"` seat, that seat may see them at once; everybody
else (other seats, spectators) sees them only once the game is over (`revealed=True`).
An event without `"owner"` keeps its hidden fields secret from all until the end.
"""

from __future__ import annotations

from collections.abc import Mapping


def redact_event(event: Mapping, viewer: int | None, revealed: bool = False) -> dict:
    """The event as `viewer` (a seat, or None for a spectator) may see it."""
    if "hidden" not in event or revealed:
        return dict(event)
    if viewer is not None and event.get("owner") == viewer:
        return dict(event)
    return {key: value for key, value in event.items() if key != "hidden"}
