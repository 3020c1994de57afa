"""Challenge lines of an account's event stream (GET /v1/me/events): `challenge` to the
challenged (on connect, one per open challenge still waiting on its answer), then
`challenge_accepted | _declined | _cancelled | _expired` to everyone in it.

Like the game lines, a notification is only a hint: the stream reads the account's recent
challenges (store.challenges.records) when woken by one and at each keep-alive, and tells what
changed since it last looked, so a lost notification costs latency, never a line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from application.challenges.service import present
from store.challenges.records import KEEP_MS, ChallengeStore, Stored

CLOSED = ("accepted", "declined", "cancelled", "expired")


@dataclass(slots=True)
class ChallengeWatch:
    """What a stream told its account of its challenges so far (id -> status)."""

    store: ChallengeStore
    folded: str
    seen: dict[str, str] = field(default_factory=dict)

    def lines(self, now: int, opening: bool = False) -> list[dict]:
        """The lines of what changed since the last look (`opening`: the catch-up on
        connect, which tells only the open challenges waiting on this account)."""
        ids = self.store.ids_of(self.folded, now - KEEP_MS)
        found = []
        for stored in self.store.get_many(ids):
            if stored is None:
                continue
            status = stored.shown_status  # "accepted" only once its game is made
            before = self.seen.get(stored.id)
            self.seen[stored.id] = status
            if before == status:
                continue
            if status == "open":
                if before is None and stored.expires_at > now and self._waits_on_me(stored):
                    found.append({"type": "challenge", "challenge": present(stored)})
            elif not opening and status in CLOSED:
                found.append({"type": f"challenge_{status}", "challenge": present(stored)})
        return found

    def _waits_on_me(self, stored: Stored) -> bool:
        return self.folded in stored.invitees and self.folded not in stored.accepted_by


def wakes(payloads: list | None) -> bool:
    """Whether a wake-up calls for a look at the challenges: a keep-alive's re-check, a
    lost-messages marker, or a challenge's notification."""
    if payloads is None:
        return True
    return any(p is None or "challenge" in p for p in payloads)
