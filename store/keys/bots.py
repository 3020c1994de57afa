"""Keys of bots' turns: account seats' turns and webhook calls."""

from __future__ import annotations

from store.keys.games import PREFIX, _game


def account_turns() -> str:
    """Sorted set of the games whose seat to move is held by an account, scored by the time
    (ms) the turn became due, or, once a webhook caller claimed it, until when its claim
    holds: what the workers' webhook thread claims from (an index over the logs)."""
    return f"{PREFIX}:index:account-turns"


def webhook_call(game_id: str) -> str:
    """Hash of a game's webhook call (application.bots.webhook_turns): `version` (the turn),
    `attempt`
    (how many calls of it were begun) and `until` (ms: no other call of that turn before
    then), so each turn is called once at a time whoever claims it."""
    return _game(game_id, "webhook-call")
