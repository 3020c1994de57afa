"""Webhook bots (push): when an account with a webhook is to move, POST it the turn (the view
its seat may see, never another seat's hidden cards) signed with its webhook secret and a
timestamp, and append the move it answers like any move of that seat: decided for the seat,
appended with the expected version.

Each turn (game and version: its `turn` id) is called once at a time, whichever worker
claimed it (store.bots.webhook_calls). A call is bounded by KELTIS_WEBHOOK_CALL_TIMEOUT_S and by
the turn's deadline. A failed call (no answer in time, a refused connection, a non-2xx, a
redirect, too large, not a legal move, a TLS failure, a host no longer allowed) appends
nothing: its detail goes to the account's owner only (GET /v1/me `last_webhook_error`), the
turn is called again after a backoff (the same `turn`, the next `attempt`), and a turn still
unanswered at its deadline times out there like any seat's (`reason: "deadline"`), so
neither the public reason nor its time tells why a call failed.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import orjson

import settings
from application.accounts import auth
from application.games.service import GameService
from application.metrics import counters as metrics
from application.webhooks.delivery import Unreachable, WebhookFailure, post
from application.webhooks.errors import WebhookNotAllowed
from application.webhooks.policy import WebhookPolicy
from domain.errors import KeltisError
from gamelog.record import GameRecord
from store.accounts.records import AccountRecord
from store.bots.webhook_calls import WebhookCalls, record_answer
from store.games.index import account_to_move

log = logging.getLogger(__name__)

SIGNATURE_HEADER = "X-Keltis-Signature"
SIGNATURE_TOLERANCE_S = 300  # a receiver refuses a signature timestamp further off than this
NO_CLOCK_CALL_MS = 10_000  # a game without a clock (none was set): the call's own bound
GRACE_MS = 2_000  # a call's hold on its turn outlives the call by this much
RETRY_FIRST_MS = 1_000  # a failed call's turn is called again after 1 s, 2 s, 4 s, ...
RETRY_MAX_MS = 60_000
KEEP_MS = 3_600_000  # a turn's call record outlives its deadline by this much

MOVED = "moved"  # the answered move was appended
STALE = "stale"  # the game moved on first (nothing appended)
SKIPPED = "skipped"  # no webhook account is to move
BUSY = "busy"  # another call of this turn runs, or its retry is not due yet
FAILED = "failed"  # the call failed: retried after a backoff, or the deadline times it out

Hold = Callable[[int], object]  # extend the caller's claim on the turn until (ms)


def call_timeout_s() -> float:
    """KELTIS_WEBHOOK_CALL_TIMEOUT_S: the bound of one call, whatever the game's clock."""
    return settings.current().webhook_call_timeout_s


def sign(secret: str, body: bytes, at_s: int) -> str:
    """The signature header's value: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>." and the
    raw body under the secret>` (the timestamp is signed with the body)."""
    signed = f"{at_s}.".encode() + body
    return f"t={at_s},v1={hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()}"


def verify(
    secret: str, body: bytes, header: str, now_s: float, tolerance_s: float = SIGNATURE_TOLERANCE_S
) -> bool:
    """Whether `header` signs `body` under `secret` with a timestamp within `tolerance_s` of
    `now_s` (constant-time compare): what a receiver checks."""
    fields = dict(part.split("=", 1) for part in header.split(",") if "=" in part)
    stamp = fields.get("t", "")
    if not stamp.isdigit() or abs(now_s - int(stamp)) > tolerance_s:
        return False
    expected = sign(secret, body, int(stamp)).encode()
    return hmac.compare_digest(expected, f"t={stamp},v1={fields.get('v1', '')}".encode())


def turn_id(game_id: str, version: int) -> str:
    """A turn's id, the same in every call of it: `<game>.<version>`."""
    return f"{game_id}.{version}"


def turn_body(record: GameRecord, seat: int, attempt: int = 1) -> dict:
    """What the webhook is sent: the turn, as `seat` may see it; `attempt` counts the calls
    of this turn (a repeat has the same `turn` and a higher attempt)."""
    rules = record.rules
    return {
        "type": "turn",
        "turn": turn_id(record.game_id, record.version),
        "attempt": attempt,
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


@dataclass(frozen=True, slots=True)
class Turn:
    """A turn of a webhook account, as loaded."""

    record: GameRecord
    account: AccountRecord


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of a call: MOVED, STALE, SKIPPED, BUSY or FAILED; `retry_ms` is when the
    turn may be called again (BUSY, FAILED); `reason` the failure (FAILED)."""

    kind: str
    retry_ms: int | None = None
    reason: str | None = None


class WebhookCaller:
    """Calls the webhooks of turns: one call of a turn at a time, each bounded."""

    def __init__(
        self,
        service: GameService,
        policy: WebhookPolicy,
        timeout_s: float | None = None,
        wall: Callable[[], float] = time.time,
    ):
        self.service = service
        self.policy = policy
        self.calls = WebhookCalls(service.client)
        self.timeout_ms = int(1000 * (call_timeout_s() if timeout_s is None else timeout_s))
        self.wall = wall

    def prepare(self, game_id: str) -> Turn | None:
        """The turn of a game, when a webhook account is to move."""
        record, _, _ = self.service.load(game_id)
        account = webhook_account(self.service, record)
        return Turn(record, account) if account is not None else None

    def call(self, game_id: str, hold: Hold | None = None) -> Outcome:
        """Prepare and deliver a game's turn."""
        turn = self.prepare(game_id)
        return self.deliver(turn, hold) if turn is not None else Outcome(SKIPPED)

    def deliver(self, turn: Turn, hold: Hold | None = None) -> Outcome:
        """Call the turn's webhook (unless another call of it runs or its retry is not due)
        and append its answer."""
        record, account = turn.record, turn.account
        now = self.service.clock()
        deadline = record.deadline
        until = now + (self.timeout_ms if deadline is not None else NO_CLOCK_CALL_MS)
        if deadline is not None:
            if deadline <= now:  # the deadline times it out (application.games.clocks)
                return Outcome(BUSY, deadline + GRACE_MS)
            until = min(until, deadline)
        expire = max(until, deadline or 0) + KEEP_MS
        game_id, version = record.game_id, record.version
        attempt, busy_until = self.calls.begin(game_id, version, now, until + GRACE_MS, expire)
        if not attempt:
            return Outcome(BUSY, busy_until or now + GRACE_MS)
        if hold is not None:
            hold(until + GRACE_MS)
        try:
            move = self._ask(record, account, attempt, until)
        except WebhookFailure as failure:
            return self._failed(turn, attempt, failure.reason, expire)
        record_answer(self.service.client, account.folded, self.service.clock())
        actor = auth.Actor(record.to_move, account=account.name)
        try:
            batch, after = self.service.decide(record, actor, move, expected_version=version)
        except KeltisError:
            return self._failed(turn, attempt, "illegal_move", expire)
        return Outcome(MOVED if self.service.append_batch(record, batch, after) else STALE)

    def _ask(self, record: GameRecord, account: AccountRecord, attempt: int, until: int) -> dict:
        """The move the webhook answers; WebhookFailure (with its reason) otherwise."""
        seat = record.to_move
        try:
            target = self.policy.pin(account.webhook)
        except WebhookNotAllowed:
            raise WebhookFailure("not_allowed") from None
        body = orjson.dumps(turn_body(record, seat, attempt), option=orjson.OPT_NON_STR_KEYS)
        headers = {
            "Content-Type": "application/json",
            SIGNATURE_HEADER: sign(account.webhook_secret, body, int(self.wall())),
            "User-Agent": "keltis-webhook",
        }
        began = time.perf_counter()
        outcome = "ok"
        try:
            answer = post(target, body, headers, until / 1000)
            return answered_move(answer, turn_body_moves(record, seat))
        except Unreachable:
            outcome = "unreachable"
            raise WebhookFailure("unreachable") from None
        except WebhookFailure as failure:
            outcome = failure.reason
            if failure.reason == "deadline" and until < (record.deadline or until + 1):
                outcome = "timeout"
                raise WebhookFailure("timeout") from None  # the call's own bound
            raise
        except Exception:
            outcome = "error"
            raise
        finally:
            metrics.webhook_called(outcome, time.perf_counter() - began)

    def _failed(self, turn: Turn, attempt: int, reason: str, expire: int) -> Outcome:
        """Tell the owner, and call the turn again after a backoff (at the deadline the
        clock times it out instead)."""
        record = turn.record
        now = self.service.clock()
        log.info("game %s v%d: webhook call %d failed (%s)", record.game_id, record.version,
                 attempt, reason)  # fmt: skip
        detail = {
            "reason": reason,
            "game": record.game_id,
            "version": record.version,
            "turn": turn_id(record.game_id, record.version),
            "attempt": attempt,
            "at": now,
        }
        self.calls.record_error(turn.account.folded, detail)
        retry = now + min(RETRY_MAX_MS, RETRY_FIRST_MS << min(attempt - 1, 16))
        if record.deadline is not None and retry >= record.deadline:
            retry = record.deadline + GRACE_MS
        self.calls.defer(record.game_id, record.version, attempt, retry, max(expire, retry))
        return Outcome(FAILED, retry, reason)


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
