"""The long poll of `GET /v1/games/{id}/events?wait=`: wait for a newer version, and answer
nothing to a caller whose account key was replaced meanwhile (application.accounts.credentials)."""

from __future__ import annotations

from application.accounts.credentials import NONE, Credential
from application.accounts.errors import Unauthenticated
from application.games.service import GameService
from application.metrics import counters as metrics


def wait_for_version(
    service: GameService,
    game_id: str,
    after: int,
    wait_s: float,
    credential: Credential = NONE,
) -> None:
    """Block up to `wait_s` seconds until the game's version exceeds `after`. With an account
    key, the wait also wakes on the account's channel, and ends with Unauthenticated as soon
    as the key no longer works (checked at each wake-up and once the wait is over)."""
    waiting = metrics.long_poll_opened()
    try:
        _wait(service, game_id, after, wait_s, credential)
    finally:
        waiting.dec()


def _wait(
    service: GameService, game_id: str, after: int, wait_s: float, credential: Credential
) -> None:
    if credential.key_hash is None:
        service.watcher.wait(game_id, after, wait_s)
        return

    def still_valid() -> bool:
        return credential.valid(service.accounts)

    service.watcher.wait(game_id, after, wait_s, credential.channels, still_valid)
    if not still_valid():
        raise Unauthenticated("the account key is not valid")
