"""Bot CPU budgets: who pays for a request's bot work, whether it fits, and settling what
was charged against what the workers measured.

The design: a request with bot work (a game with bot seats, a tournament) is charged its
estimate (application.budget.estimate) up front, all or nothing, against its payer's budget: an
account's when the request carries an account key, else its client address's (a smaller
budget). What does not fit is refused before anything is written (CpuBudgetExceeded: 429
with what is left). The workers measure the CPU time each bot job really takes and add it
to the request's charge record as each job ends: what goes beyond the estimate is charged
to the payer's counters of the current windows at once (so a game that runs long, or would
never end, is paid for as it plays). While a payer's budget is spent (`spent`), its games'
searching bots move by their cheap fallback (application.bots.turns, a `bot_fallback` event)
until a window refills. When the game ends on a bot's move, or its creator (or a
tournament's organiser) cancels it, the record is settled once: the counters still in
their window get the unused part of the estimate back.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass

from limits import parse_many

import settings
from application.budget import estimate
from domain.errors import KeltisError, Kind
from domain.registry import get_rules
from store import keys
from store.budget.records import (
    BudgetStore,
    Charge,
    Limit,
    Usage,
    limits_field,
    parse_limits_field,
    window_end_s,
)
from store.core.codec import text
from tournaments.spec import DEFAULT_CONCURRENCY, make_spec

log = logging.getLogger(__name__)

OFF = "off"
DEFAULT_ANON = "600 per hour;2400 per day"
DEFAULT_ACCOUNT = "3600 per hour;14400 per day"


class CpuBudgetExceeded(KeltisError):
    """The request's bot work does not fit in what is left of its payer's budget (429)."""

    code = "cpu_budget_exceeded"
    kind = Kind.RATE_LIMITED

    def __init__(self, budget_s: float, remaining_s: float, requested_s: float, retry_s: float):
        super().__init__(
            f"this needs about {requested_s:.1f} CPU-seconds of bot work; "
            f"{remaining_s:.1f} of {budget_s:g} are left in this period"
        )
        self.retry_after_s = max(1, math.ceil(retry_s))
        self.details = {
            "budget_seconds": round(budget_s, 3),
            "remaining_seconds": round(remaining_s, 3),
            "requested_seconds": round(requested_s, 3),
        }


def parse_limits(setting: str) -> list[Limit]:
    """Limits of a setting "<seconds> per <period>[;...]" (the `limits` syntax); [] for off."""
    setting = str(setting).strip()
    if setting.lower() == OFF:
        return []
    return [Limit(int(item.amount) * 1000, int(item.get_expiry())) for item in parse_many(setting)]


def account_limits() -> list[Limit]:
    """The per-account budget the workers charge, as the API reads it:
    KELTIS_BOT_CPU_BUDGET_ACCOUNT ([] for off)."""
    return parse_limits(settings.current().bot_cpu_budget_account)


def account_budgets(client) -> Budgets | None:
    """The account budgets the settings give (KELTIS_BOT_CPU_BUDGET_ACCOUNT), or None when
    off."""
    limits = account_limits()
    if not limits:
        return None
    return Budgets(BudgetStore(client), [], limits)


def _whole_ms(cost_s: float) -> int:
    """A cost in whole milliseconds, rounded up (float noise below a nanosecond ignored)."""
    return math.ceil(round(max(0.0, cost_s) * 1000, 6))


@dataclass(frozen=True)
class Payer:
    """Who pays: `addr:<address>` or `acct:<folded account name>`."""

    id: str
    account: str | None = None

    @classmethod
    def of(cls, address: str, account: str | None) -> Payer:
        if account:
            return cls(f"acct:{account}", account)
        return cls(f"addr:{address}")


@dataclass(frozen=True)
class Ticket:
    """A charge made for one request (to be recorded, or refunded if the request fails)."""

    payer: Payer
    cost_ms: int
    charge: Charge | None
    limits: tuple[Limit, ...] = ()  # the payer's, charged as the work runs past the estimate


class Budgets:
    """The budgets of anonymous clients and of accounts, counted in one BudgetStore."""

    def __init__(self, store: BudgetStore, anon: list[Limit], account: list[Limit]):
        self.store = store
        self.anon = sorted(anon, key=lambda lim: lim.period_s)
        self.account = sorted(account, key=lambda lim: lim.period_s)

    def limits_of(self, payer: Payer) -> list[Limit]:
        return self.account if payer.account else self.anon

    def admit(self, payer: Payer, cost_s: float) -> Ticket:
        """Charge `cost_s` to `payer`; CpuBudgetExceeded (nothing charged) when it does not
        fit in every limit."""
        cost_ms = _whole_ms(cost_s)
        limits = self.limits_of(payer)
        if not limits or cost_ms == 0:
            return Ticket(payer, cost_ms, None, tuple(limits))
        charge = self.store.charge(payer.id, limits, cost_ms)
        if charge.ok:
            return Ticket(payer, cost_ms, charge, tuple(limits))
        raise self._exceeded(limits, charge.used_ms, cost_ms)

    def refusal(self, payer: Payer, cost_s: float) -> CpuBudgetExceeded | None:
        """What `admit` would refuse now, charging nothing (None: it fits): a promise made
        ahead of the charge, such as a seek's pool bots, must not promise what it refuses."""
        cost_ms = _whole_ms(cost_s)
        limits = self.limits_of(payer)
        if not limits or cost_ms == 0:
            return None
        used = self.store.used_ms(payer.id, limits)
        if all(u + cost_ms <= lim.amount_ms for u, lim in zip(used, limits, strict=True)):
            return None
        return self._exceeded(limits, used, cost_ms)

    def _exceeded(self, limits: list[Limit], used_ms, cost_ms: int) -> CpuBudgetExceeded:
        """The refusal of `cost_ms` over the tightest of the limits it does not fit."""
        now = self.store.clock()
        over = [i for i, lim in enumerate(limits) if used_ms[i] + cost_ms > lim.amount_ms]
        binding = min(over, key=lambda i: limits[i].amount_ms - used_ms[i])
        limit = limits[binding]
        return CpuBudgetExceeded(
            limit.amount_ms / 1000,
            max(0, limit.amount_ms - used_ms[binding]) / 1000,
            cost_ms / 1000,
            window_end_s(limit, now) - now,
        )

    def refund(self, ticket: Ticket) -> None:
        """Give back a ticket whose request failed."""
        if ticket.charge is not None:
            self.store.adjust(ticket.charge.counters, -ticket.cost_ms)


def ticket_charge(ticket: Ticket | None) -> tuple[int, tuple[str, ...]]:
    """(ms charged, counters charged) of a ticket, for its charge record."""
    if ticket is None or ticket.charge is None:
        return 0, ()
    return ticket.cost_ms, ticket.charge.counters


def ticket_limits(ticket: Ticket | None) -> str | None:
    """The charge record's `limits` field of a ticket (None: no budget applies)."""
    if ticket is None or not ticket.limits:
        return None
    return limits_field(ticket.limits)


def record_tournament(store: BudgetStore, tid: str, payer: Payer, ticket: Ticket | None) -> None:
    """Write a new tournament's charge record (its games' bot CPU is noted there)."""
    store.open_record(
        keys.tournament_cpu(tid),
        *ticket_charge(ticket),
        payer=payer.id,
        limits=ticket_limits(ticket),
    )


def settle(store: BudgetStore, key: str, used_ms: int = 0) -> int | None:
    """Settle a charge record once: what was used beyond the estimate is charged to the
    payer now (if not already), and the counters charged up front get back what the
    estimate left unused. The ms given back, or None when it was settled already or has no
    record."""
    usage = _settle(store, key, used_ms)
    if usage is None or not usage.settled:
        return None
    return usage.charged_ms + usage.overrun_ms - usage.used_ms


def _settle(store: BudgetStore, key: str, used_ms: int) -> Usage | None:
    usage = store.use(key, used_ms, settle=True)
    if usage is None:
        return None
    _charge_due(store, usage)
    if usage.settled:
        delta = usage.used_ms - usage.charged_ms - usage.overrun_ms  # <= 0: the unused part
        store.adjust(usage.counters, delta)
    return usage


def _charge_due(store: BudgetStore, usage: Usage) -> None:
    """Charge the payer's current windows what a record's work used beyond its estimate."""
    if usage.due_ms > 0 and usage.payer and usage.limits:
        store.charge(usage.payer, list(usage.limits), usage.due_ms, force=True)


def record_key(game_id: str, tournament: dict | None) -> str:
    """The charge record a game's bot CPU counts against: its tournament's, else its own."""
    if tournament and tournament.get("id"):
        return keys.tournament_cpu(tournament["id"])
    return keys.game_creator(game_id)


def note_cpu(store: BudgetStore, key: str, used_s: float, ended: bool = False) -> Usage | None:
    """A worker measured `used_s` of CPU for a charge record (a game that `ended` settles
    it); the record after (None without one). Never raises: a budget's bookkeeping must not
    fail a bot turn."""
    try:
        if ended:
            return _settle(store, key, round(used_s * 1000))
        usage = store.use(key, round(used_s * 1000))
        if usage is not None:
            _charge_due(store, usage)
        return usage
    except Exception:
        log.exception("could not note %.3f s of bot CPU on %s", used_s, key)
        return None


def creator_kind(stream: str | None) -> str:
    """The kind of who bot work is for, from a payer id or a fair-queue stream: account,
    anonymous, tournament, or service (no request made it: the CLI, an internal game)."""
    prefix = (stream or "").split(":", 1)[0]
    return {"acct": "account", "addr": "anonymous", "t": "tournament"}.get(prefix, "service")


def note_game_cpu(service, game_id: str, used_s: float) -> str:
    """A bot job of a game took `used_s` of CPU: noted on its charge record (its own, or
    its tournament's); a game of its own that ended settles its record. The kind of its
    creator (`creator_kind`)."""
    try:
        record = service.load(game_id)[0]
    except Exception:
        log.exception("could not load game %s to note its bot CPU", game_id)
        return "service"
    key = record_key(game_id, record.tournament)
    ended = record.finished and not record.tournament
    usage = note_cpu(BudgetStore(service.client), key, used_s, ended)
    if record.tournament:
        return "tournament"
    return creator_kind(usage.payer if usage is not None else None)


def note_tournament_cpu(client, tid: str, used_s: float) -> None:
    """A tournament's game job took `used_s` of CPU: noted on its charge record."""
    note_cpu(BudgetStore(client), keys.tournament_cpu(tid), used_s)


def standing(store: BudgetStore, payer: str, limits) -> dict:
    """A payer's bot CPU budget as its owner sees it (GET /v1/me): per limit its seconds,
    period, seconds used in the current window and when that window ends (ms); `spent` when
    one is used up: its games' searching bots then move by their cheap fallback."""
    now = store.clock()
    used = store.used_ms(payer, limits)
    shown = [
        {
            "seconds": lim.amount_ms / 1000,
            "period_seconds": lim.period_s,
            "used_seconds": round(min(u, lim.amount_ms) / 1000, 3),
            "resets_at": int(window_end_s(lim, now) * 1000),
        }
        for u, lim in zip(used, limits, strict=True)
    ]
    spent = any(u >= lim.amount_ms for u, lim in zip(used, limits, strict=True))
    return {"spent": spent, "limits": shown}


def spent(client, record) -> bool:
    """Whether the game's bots must move by their cheap fallback: what is left of the
    estimate charged for it, and of its payer's budget, is less than one more move of its
    searching bots (`estimate.move_seconds`; so the searches stop within the budget, not one
    move past it). A game with no charge record, or no limits, never is. Two reads at most;
    a failed read is taken as not spent."""
    try:
        fields = client.hmget(
            record_key(record.game_id, record.tournament),
            ["charged_ms", "used_ms", "payer", "limits"],
        )
        charged, used, payer, limits = (None if f is None else text(f) for f in fields)
        if not payer or not limits:
            return False
        move_ms = round(1000 * max(_move_seconds(record), default=0.0))
        if int(used or 0) + move_ms <= int(charged or 0):
            return False
        return BudgetStore(client).spent(payer, parse_limits_field(limits), move_ms)
    except Exception:
        log.exception("could not read the bot CPU budget of game %s", record.game_id)
        return False


def _move_seconds(record):
    """The CPU one move of each bot seat of the game may take (estimate.move_seconds)."""
    bots = record.rules.bots
    return [estimate.move_seconds(bots, p.get("bot")) for p in record.players if p.get("bot")]


def tournament_seconds(request: dict) -> float:
    """The estimate of a tournament request (checked as tournaments.start checks it)."""
    spec = make_spec(
        request["game"],
        request["bots"],
        request.get("players_per_game"),
        request.get("games"),
        request.get("seed") or "estimate",
        options=request.get("options") or {},
        format=request.get("format", "rotation"),
        games_per_table=request.get("games_per_table"),
        clock=request.get("clock"),
        concurrency=request.get("concurrency", DEFAULT_CONCURRENCY),
        parallel_per_account=request.get("parallel_per_account", False),
        match=request.get("match", "single"),
    )
    rules = get_rules(spec.game)
    boards = 2 if spec.match == "two_boards" else 1  # a two-board match plays two games
    return boards * estimate.tournament_seconds(rules, spec.bots, spec.players_per_game, spec.games)


def game_seconds(game: str, players: list[dict]) -> float:
    """The estimate of a game request (0 for an unknown game: creating it fails anyway)."""
    try:
        rules = get_rules(game)
    except (KeltisError, KeyError):
        return 0.0
    return estimate.game_seconds(rules, players)
