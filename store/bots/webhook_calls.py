"""Webhook calls in Redis: who may call a game's turn now (one call of a turn at a time,
keyed by game and version, whichever worker claimed it), the last failed call of each
account, which only its owner reads, and when each account's webhook last answered.
Storage only: application.bots.webhook_turns decides."""

from __future__ import annotations

import orjson
import redis

from store import keys
from store.core.scripts import load_script

ERROR_TTL_S = 7 * 24 * 3600  # an account's last failed call is shown for a week


class WebhookCalls:
    """Begin and defer the calls of turns; record an account's last failure."""

    def __init__(self, client: redis.Redis):
        self.client = client
        self.begin_script = client.register_script(load_script("begin_webhook_call.lua"))
        self.defer_script = client.register_script(load_script("defer_webhook_call.lua"))

    def begin(
        self, game_id: str, version: int, now_ms: int, until_ms: int, expire_ms: int
    ) -> tuple[int, int]:
        """Begin a call of the turn at `version`, which no other call may begin before
        `until_ms`: `(attempt, until_ms)`, attempt 1 for its first call; `(0, until)` when
        another call of the turn runs or its retry is due only at `until` (0: the turn is
        over). The record expires at `expire_ms`."""
        attempt, until = self.begin_script(
            keys=[keys.webhook_call(game_id)], args=[version, now_ms, until_ms, expire_ms]
        )
        return int(attempt), int(until)

    def defer(self, game_id: str, version: int, attempt: int, until_ms: int, expire_ms: int):
        """No call of the turn before `until_ms` (the retry of a failed `attempt`)."""
        return bool(
            self.defer_script(
                keys=[keys.webhook_call(game_id)],
                args=[version, attempt, until_ms, expire_ms],
            )
        )

    def record_error(self, folded_name: str, detail: dict) -> None:
        """Remember an account's last failed call (`detail`: reason, game, version, ...)."""
        self.client.set(
            keys.account_webhook_error(folded_name), orjson.dumps(detail), ex=ERROR_TTL_S
        )


def record_answer(client: redis.Redis, folded_name: str, now_ms: int) -> None:
    """Remember when the account's webhook last answered."""
    client.set(keys.account_webhook_answered(folded_name), now_ms, ex=ERROR_TTL_S)


def probe_failed(client: redis.Redis, folded_name: str, now_ms: int, quiet_ms: int) -> None:
    """A liveness probe failed: no other probe for `quiet_ms` (the key expires then)."""
    client.set(keys.account_webhook_probe_failed(folded_name), now_ms, px=quiet_ms)


def probing_quiet(client: redis.Redis, folded_name: str) -> bool:
    """Whether a probe failed lately enough that no other is made now."""
    return bool(client.exists(keys.account_webhook_probe_failed(folded_name)))


def last_answer(client: redis.Redis, folded_name: str) -> int | None:
    """When the account's webhook last answered (ms; None: not this week)."""
    raw = client.get(keys.account_webhook_answered(folded_name))
    return int(raw) if raw else None


def last_error(client: redis.Redis, folded_name: str) -> dict | None:
    """The last failed webhook call of an account, for its owner (None: none this week)."""
    raw = client.get(keys.account_webhook_error(folded_name))
    return orjson.loads(raw) if raw else None
