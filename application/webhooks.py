"""Webhook bots (push): when an account with a webhook is to move, POST it the turn (the view
its seat may see, never another seat's hidden cards) signed with its webhook secret, and
append the move it answers like any move of that seat: decided for the seat, appended with
the expected version. A failed answer times the turn out at once, with its reason
(application.clocks); a webhook that cannot be reached waits for the deadline."""

from __future__ import annotations

import hashlib
import hmac
import logging
from collections.abc import Callable

import orjson

from application import auth, clocks
from application.errors import WebhookNotAllowed
from application.games import GameService
from application.webhook_http import Unreachable, WebhookFailure, post
from application.webhooks_policy import WebhookPolicy
from domain.errors import KeltisError
from gamelog.record import GameRecord
from store.accounts import AccountRecord
from store.index import account_to_move

log = logging.getLogger(__name__)

SIGNATURE_HEADER = "X-Keltis-Signature"
NO_CLOCK_CALL_MS = 10_000  # a game without a clock (none was set): the call's own bound
GRACE_MS = 2_000  # a claim outlives the call by this much

MOVED = "moved"  # the answered move was appended
STALE = "stale"  # the game moved on first (nothing appended)
SKIPPED = "skipped"  # no webhook account is to move
UNREACHABLE = "unreachable"  # no connection: the deadline will time the turn out

Hold = Callable[[int], object]  # extend the caller's claim on the turn until (ms)


def sign(secret: str, body: bytes) -> str:
    """The signature header's value: `sha256=<hex HMAC-SHA256 of the raw body>`."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def turn_body(record: GameRecord, seat: int) -> dict:
    """What the webhook is sent: the turn, as `seat` may see it."""
    rules = record.rules
    return {
        "game": record.game_id,
        "game_type": record.game,
        "seat": seat,
        "version": record.version,
        "deadline": record.deadline,
        "view": rules.view(record.state, seat),
        "legal_moves": rules.legal_moves(record.state, seat),
    }


def webhook_account(service: GameService, record: GameRecord) -> AccountRecord | None:
    """The account to move, when it has a webhook."""
    name = account_to_move(record)
    account = service.accounts.get(name) if name else None
    return account if account is not None and account.webhook else None


def call_turn(
    service: GameService, policy: WebhookPolicy, game_id: str, hold: Hold | None = None
) -> str:
    """Call the webhook of the account to move in a game and append its answer; what became
    of it: MOVED, STALE, SKIPPED, UNREACHABLE, or the reason of the timeout appended."""
    record, _, _ = service.load(game_id)
    account = webhook_account(service, record)
    if account is None:
        return SKIPPED
    seat, version = record.to_move, record.version
    until_ms = record.deadline or service.clock() + NO_CLOCK_CALL_MS
    if hold is not None:
        hold(until_ms + GRACE_MS)
    try:
        target = policy.pin(account.webhook)
    except WebhookNotAllowed:
        return _timed_out(service, game_id, version, "not_allowed")
    body = orjson.dumps(turn_body(record, seat), option=orjson.OPT_NON_STR_KEYS)
    headers = {
        "Content-Type": "application/json",
        SIGNATURE_HEADER: sign(account.webhook_secret, body),
        "User-Agent": "keltis-webhook",
    }
    try:
        answer = post(target, body, headers, until_ms / 1000)
        move = answered_move(answer, turn_body_moves(record, seat))
    except WebhookFailure as failure:
        return _timed_out(service, game_id, version, failure.reason)
    except Unreachable as error:
        log.info("game %s v%d: webhook unreachable (%s)", game_id, version, error)
        return UNREACHABLE
    actor = auth.Actor(seat, account=account.name)
    try:
        batch, after = service.decide(record, actor, move, expected_version=version)
    except KeltisError:
        return _timed_out(service, game_id, version, "illegal_move")
    return MOVED if service.append_batch(record, batch, after) else STALE


def turn_body_moves(record: GameRecord, seat: int) -> list:
    """The legal moves as sent (JSON round trip: what the webhook may answer)."""
    return orjson.loads(orjson.dumps(record.rules.legal_moves(record.state, seat)))


def answered_move(answer: bytes, legal: list) -> dict:
    """The `{"move": {...}}` of an answer, when it is one of `legal`; WebhookFailure
    (`invalid_json`, `illegal_move`) otherwise."""
    try:
        data = orjson.loads(answer)
    except orjson.JSONDecodeError:
        raise WebhookFailure("invalid_json") from None
    move = data.get("move") if isinstance(data, dict) else None
    if not isinstance(move, dict):
        raise WebhookFailure("invalid_json")
    if move not in legal:
        raise WebhookFailure("illegal_move")
    return move


def _timed_out(service: GameService, game_id: str, version: int, reason: str) -> str:
    log.info("game %s v%d: webhook failed (%s)", game_id, version, reason)
    return reason if clocks.time_out(service, game_id, version, reason) else STALE
