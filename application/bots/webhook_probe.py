"""Whether a webhook bot is connected now: its webhook answered recently (a turn's legal
move, or this module's probe), else a probe answers now.

A probe is a signed POST (application.bots.webhook_turns' signature) of `{"type": "ping", "id"}`,
bounded
by KELTIS_WEBHOOK_CALL_TIMEOUT_S; any 2xx answer counts, whatever its body. After a failed
probe no other is made for PROBE_EVERY_MS, so a dead webhook costs one probe that often.
"""

from __future__ import annotations

import secrets
import time

import orjson

from application.bots.webhook_turns import SIGNATURE_HEADER, call_timeout_s, sign
from application.webhooks.delivery import Unreachable, WebhookFailure, post
from application.webhooks.errors import WebhookNotAllowed
from application.webhooks.policy import WebhookPolicy
from store.accounts.records import AccountRecord
from store.bots.webhook_calls import (
    last_answer,
    last_error,
    probe_failed,
    probing_quiet,
    record_answer,
)

FRESH_MS = 30_000  # an answer this recent: connected now, no probe
PROBE_EVERY_MS = 10_000  # after a failed probe, the next one waits this long


def answered_since(client, folded: str, since_ms: int) -> bool:
    """Whether the account's webhook answered at or after `since_ms`, with no failed call
    after that answer."""
    answered = last_answer(client, folded)
    if answered is None or answered < since_ms:
        return False
    failed = last_error(client, folded)
    return failed is None or int(failed.get("at", 0)) < answered


def connected(client, policy: WebhookPolicy, account: AccountRecord, now_ms: int) -> bool:
    """Whether the account's webhook answers: recently, else to a probe now (unless a
    probe failed within PROBE_EVERY_MS)."""
    if not account.webhook:
        return False
    if answered_since(client, account.folded, now_ms - FRESH_MS):
        return True
    if probing_quiet(client, account.folded):
        return False
    if ping(policy, account) is None:
        record_answer(client, account.folded, now_ms)
        return True
    probe_failed(client, account.folded, now_ms, PROBE_EVERY_MS)
    return False


def ping(policy: WebhookPolicy, account: AccountRecord) -> str | None:
    """Probe the webhook once: None when it answered 2xx, else why not."""
    try:
        target = policy.pin(account.webhook)
    except WebhookNotAllowed:
        return "not_allowed"
    # A fresh id each time: a receiver refusing replayed signatures never sees two alike.
    body = orjson.dumps({"type": "ping", "id": secrets.token_urlsafe(12)})
    headers = {
        "Content-Type": "application/json",
        SIGNATURE_HEADER: sign(account.webhook_secret, body, int(time.time())),
        "User-Agent": "keltis-webhook",
    }
    try:
        post(target, body, headers, time.time() + call_timeout_s())
    except Unreachable:
        return "unreachable"
    except WebhookFailure as failure:
        return failure.reason
    return None
