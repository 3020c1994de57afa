"""A challenged account with a webhook is asked by a signed POST (the signature and the
bounds of the turn webhooks, application.bots.webhook_turns): body `{"type": "challenge",
"challenge": {Challenge}}`. It answers `{"accept": true}` or `{"decline": "<reason>"}`;
any other answer, or none in time, leaves the challenge open until it expires or is
answered through the API. Each challenge is asked once per account."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import orjson

from application.bots.webhook_turns import SIGNATURE_HEADER, call_timeout_s, sign
from application.challenges.service import DECLINE_REASONS, Challenges, present
from application.webhooks.delivery import Unreachable, WebhookFailure, post
from application.webhooks.errors import WebhookNotAllowed
from application.webhooks.policy import WebhookPolicy
from domain.errors import KeltisError

log = logging.getLogger(__name__)

ACCEPTED, DECLINED, UNANSWERED = "accepted", "declined", "unanswered"


def answer_of(raw: bytes) -> tuple[str, str | None]:
    """("accept", None), ("decline", reason), or ("none", None) for anything else."""
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return "none", None
    if not isinstance(data, dict):
        return "none", None
    if data.get("accept") is True:
        return "accept", None
    reason = data.get("decline")
    if reason is not None:
        return "decline", reason if reason in DECLINE_REASONS else "generic"
    return "none", None


def ask(
    challenges: Challenges,
    policy: WebhookPolicy,
    challenge_id: str,
    folded: str,
    timeout_s: float | None = None,
    wall: Callable[[], float] = time.time,
) -> str:
    """Ask one challenged account's webhook and act on its answer; what became of it."""
    stored = challenges.store.get(challenge_id)
    account = challenges.service.accounts.get(folded)
    if stored is None or stored.status != "open" or account is None or not account.webhook:
        return UNANSWERED
    body = orjson.dumps({"type": "challenge", "challenge": present(stored)})
    headers = {
        "Content-Type": "application/json",
        SIGNATURE_HEADER: sign(account.webhook_secret, body, int(wall())),
        "User-Agent": "keltis-webhook",
    }
    bound = call_timeout_s() if timeout_s is None else timeout_s
    until = min(wall() + bound, stored.expires_at / 1000)
    try:
        raw = post(policy.pin(account.webhook), body, headers, until)
    except (WebhookNotAllowed, WebhookFailure, Unreachable) as error:
        log.info("challenge %s: webhook of %s not answered: %s", challenge_id, folded, error)
        return UNANSWERED
    kind, reason = answer_of(raw)
    try:
        if kind == "accept":
            challenges.accept_stored(stored, folded)
            return ACCEPTED
        if kind == "decline":
            challenges.decline_stored(stored, folded, reason)
            return DECLINED
    except KeltisError as error:  # answered too late, or over the challenger's budget
        log.info("challenge %s: the answer of %s not taken: %s", challenge_id, folded, error)
    return UNANSWERED
