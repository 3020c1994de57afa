"""Claims on the turns of account seats (the `account_turns` index): a webhook caller takes a
due turn for a while (a lease), so however many workers look, one of them calls the webhook;
the next version's index write hands the game on, and an expired lease (a caller that died)
makes the turn due again."""

from __future__ import annotations

import redis

from store import keys
from store.core.codec import text
from store.core.scripts import load_script


class AccountTurns:
    """Claim due account turns and extend a claim."""

    def __init__(self, client: redis.Redis):
        self.client = client
        self.claim_script = client.register_script(load_script("claim_turns.lua"))
        self.hold_script = client.register_script(load_script("zadd_if_score.lua"))

    def claim(self, now_ms: int, lease_ms: int, limit: int) -> list[str]:
        """The ids of up to `limit` games whose account turn is due, each claimed until
        `now_ms + lease_ms` (one script: two callers never claim the same turn)."""
        if limit <= 0:
            return []
        found = self.claim_script(
            keys=[keys.account_turns()], args=[now_ms, now_ms + lease_ms, limit]
        )
        return [text(game_id) for game_id in found]

    def hold_until(self, game_id: str, claimed_until_ms: int, until_ms: int) -> bool:
        """Extend this caller's claim (ending at `claimed_until_ms`) on a game's turn to
        `until_ms`; False when the claim is gone (the game moved on, or was claimed anew)."""
        held = self.hold_script(
            keys=[keys.account_turns()], args=[game_id, claimed_until_ms, until_ms]
        )
        return bool(held)
