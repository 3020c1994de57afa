"""A game folded from its log: the service's own events plus the game's state."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from functools import cache, cached_property
from typing import Any

from domain import game as game_phases
from domain.registry import get_rules
from gamelog.entries import Entry
from gamelog.errors import CorruptLog
from gamelog.events import (
    BOT_FALLBACK,
    ENDED_CANCELLED,
    GAME_CREATED,
    GAME_ENDED_EARLY,
    GAME_EXPIRED,
    SEAT_FORFEITED,
    SEAT_JOINED,
    TURN_TIMED_OUT,
)

DEFAULT_FALLBACK = "random"  # plays for a seat that resigned a game without a clock


class Status(StrEnum):
    """Where a game stands: waiting for seats (or expired waiting), then the rules' own
    phases."""

    WAITING = "waiting"
    EXPIRED = "expired"
    CANCELLED = "cancelled"
    ACTIVE = game_phases.ACTIVE
    FINAL_ROUND = game_phases.FINAL_ROUND
    FINISHED = game_phases.FINISHED


STATUSES = tuple(Status)


@dataclass(frozen=True)
class GameRecord:
    """Everything the service knows about one game at one version. Immutable."""

    game_id: str
    game: str
    options: dict
    players: tuple[dict, ...]
    seed_hex: str
    created_at: int
    invites: dict = field(default_factory=dict)  # open seat -> SHA-256 of its join code
    version: int = 0
    updated_at: int = 0
    state: Any = None
    expired: bool = False
    clock: dict | None = None  # move_seconds, bank_seconds, fallback, max_timeouts
    timeouts: tuple[int, ...] = ()  # per seat
    bank_ms: tuple[int, ...] = ()  # per seat: what is left of its bank
    forfeited: frozenset[int] = frozenset()
    fallback_seats: frozenset[int] = frozenset()  # bots moved by `fallback_bot` (a budget)
    fallback_bot: str | None = None
    ended_early: str | None = None  # the reason a game ended before its rules' end
    rated: bool = False  # its result goes into the ladder once it is finished
    tournament: dict | None = None  # id, index, deal, open, deal_games (gamelog.events)
    allow_same_account: bool = False  # one account may take several seats (unrated only)
    aborts: bool = False  # unrated, yet aborted when a seat never moved (a match's first game)
    moved: frozenset[int] = frozenset()  # seats that made a move of their own (see `own_move`)
    covering: int | None = None  # a seat timed out: its next move is the fallback bot's

    @property
    def rules(self):
        """The game's rules object."""
        return _rules_of(self.game)

    @property
    def open_seats(self) -> list[int]:
        return [seat for seat, player in enumerate(self.players) if player.get("open")]

    @property
    def started(self) -> bool:
        return self.state is not None

    @cached_property  # a record never changes; `replace` makes a new one
    def status(self) -> Status:
        if self.state is None:
            if self.cancelled:  # its creator cancelled it while it waited for seats
                return Status.CANCELLED
            return Status.EXPIRED if self.expired else Status.WAITING
        if self.ended_early:
            return Status.CANCELLED if self.cancelled else Status.FINISHED
        return Status(self.rules.phase(self.state))

    @property
    def finished(self) -> bool:
        """Over: finished by its rules or early, or cancelled (no more commands, no clock,
        everything may be shown)."""
        return self.status in (Status.FINISHED, Status.CANCELLED)

    @property
    def cancelled(self) -> bool:
        """Ended by its creator's or its tournament's cancellation: no result counts."""
        return self.ended_early == ENDED_CANCELLED

    @cached_property  # asked for many times per move (index, notices, answer)
    def to_move(self) -> int | None:
        if self.state is None or self.ended_early:
            return None
        return self.rules.to_move(self.state)

    @property
    def fallback(self) -> str:
        """The bot that plays for a seat that timed out or forfeited."""
        if self.clock is not None:
            return self.clock["fallback"]
        bots = self.rules.bots
        return DEFAULT_FALLBACK if DEFAULT_FALLBACK in bots else sorted(bots)[0]

    def bot_of(self, seat: int) -> str | None:
        """The bot playing a seat: its own, or the fallback of a forfeited seat (a bot's
        seat too: one that forfeited because it kept failing, application.games.stalls)."""
        if seat in self.forfeited:
            return self.fallback
        if seat in self.fallback_seats:
            return self.fallback_bot
        return self.players[seat].get("bot")

    def bot_to_move(self) -> str | None:
        """The bot name of the seat to move, if a bot plays that seat."""
        seat = self.to_move
        return None if seat is None else self.bot_of(seat)

    @property
    def all_moved(self) -> bool:
        """Whether every seat has made a move of its own: from then on a rated game ends only
        by a result, and before it no result is rated (application.games.cancel, settle)."""
        return len(self.moved) == len(self.players)

    @property
    def in_play(self) -> list[int]:
        """The seats that have not forfeited."""
        return [seat for seat in range(len(self.players)) if seat not in self.forfeited]

    @property
    def deadline(self) -> int | None:
        """When the seat to move times out (ms since the epoch): the time of the last entry
        plus the move time plus the seat's bank; None when no clock runs (no clock, not
        started, finished, or a bot to move)."""
        if self.clock is None or self.state is None or self.finished:
            return None
        seat = self.to_move
        if seat is None or self.bot_of(seat) is not None:
            return None
        return self.updated_at + self.clock["move_seconds"] * 1000 + self.bank_ms[seat]


@cache
def _rules_of(game: str):
    """`get_rules`, looked up once per game name (records ask for it on every property)."""
    return get_rules(game)


def fold_entries(record: GameRecord | None, game_id: str, entries: list[Entry]) -> GameRecord:
    """The record after `entries` (whole batches), starting from `record` (None: empty log).

    The game's opening events (appended with the last seat, in one batch) are folded with
    `rules.fold`; every later event with `rules.evolve`.
    """
    opening: list[dict] = []
    for entry in entries:
        event = entry.event
        if entry.cmd is not None and opening:
            record = _start(record, opening)
            opening = []
        kind = event.get("type")
        if kind == GAME_CREATED:
            record = _created(game_id, entry)
        elif record is None:
            raise CorruptLog(f"the log of game {game_id} does not open with {GAME_CREATED}")
        elif kind == SEAT_JOINED:
            players = list(record.players)
            joined = {"name": event["name"]}
            if event.get("account"):
                joined["account"] = event["account"]
            players[event["seat"]] = joined
            record = replace(record, players=tuple(players))
            if event.get("clock") and record.clock is None:
                record = _clocked(record, event["clock"])
        elif kind == GAME_EXPIRED:
            record = replace(record, expired=True)
        elif kind == TURN_TIMED_OUT:
            record = _timed_out(record, event["seat"])
        elif kind == SEAT_FORFEITED:
            record = replace(record, forfeited=record.forfeited | {event["seat"]})
        elif kind == GAME_ENDED_EARLY:
            record = replace(record, ended_early=event.get("reason", "forfeit"))
        elif kind == BOT_FALLBACK:
            seats = frozenset(event["seats"])
            record = replace(record, fallback_seats=seats, fallback_bot=event.get("bot"))
        elif record.state is None:
            opening.append(event)
        else:
            if entry.cmd is not None and entry.by is not None:
                if record.clock:
                    record = _spend_bank(record, entry.by, entry.at)
                if record.covering is not None:  # the timed-out seat's fallback move
                    record = replace(record, covering=None)
                elif entry.by not in record.moved and own_move(record, entry.by):
                    record = replace(record, moved=record.moved | {entry.by})
            record = _moved(record, record.rules.evolve(record.state, event), entry)
            continue
        record = replace(record, version=entry.n, updated_at=entry.at)
    if opening:
        record = _start(record, opening)
    return record


def own_move(record: GameRecord, seat: int) -> bool:
    """Whether a move of `seat` (not one its clock's fallback made for a timeout) is the
    seat's own: not played for it by the fallback bot after it forfeited."""
    return seat not in record.forfeited


def _moved(record: GameRecord, state: Any, entry: Entry) -> GameRecord:
    """`replace(record, state=state, version=entry.n, updated_at=entry.at)`, the fold's
    step for every move, made without replace's field-by-field __init__ call: the record's
    fields copied as they are (its cached properties left out), three of them changed."""
    values = {name: record.__dict__[name] for name in _FIELDS}
    values["state"], values["version"], values["updated_at"] = state, entry.n, entry.at
    moved = object.__new__(type(record))
    moved.__dict__.update(values)
    return moved


def _spend_bank(record: GameRecord, seat: int, at: int) -> GameRecord:
    """A move made after its own time is up spends the overage from the seat's bank."""
    over = at - record.updated_at - record.clock["move_seconds"] * 1000
    if over <= 0 or not record.bank_ms[seat]:
        return record
    bank = list(record.bank_ms)
    bank[seat] = max(0, bank[seat] - over)
    return replace(record, bank_ms=tuple(bank))


def _timed_out(record: GameRecord, seat: int) -> GameRecord:
    """A timeout counts against the seat and uses up its bank."""
    timeouts, bank = list(record.timeouts), list(record.bank_ms)
    timeouts[seat] += 1
    bank[seat] = 0
    return replace(record, timeouts=tuple(timeouts), bank_ms=tuple(bank), covering=seat)


def _created(game_id: str, entry: Entry) -> GameRecord:
    event = entry.event
    seats = len(event["players"])
    clock = event.get("clock")
    bank = clock["bank_seconds"] * 1000 if clock else 0
    return GameRecord(
        game_id=game_id,
        game=event["game"],
        options=event["options"],
        players=tuple(dict(p) for p in event["players"]),
        seed_hex=event["hidden"]["seed"],
        created_at=entry.at,
        invites={int(seat): h for seat, h in event["hidden"].get("invites", {}).items()},
        clock=dict(clock) if clock else None,
        timeouts=(0,) * seats,
        bank_ms=(bank,) * seats,
        rated=bool(event.get("rated")),
        tournament=event.get("tournament"),
        allow_same_account=bool(event.get("allow_same_account")),
        aborts=bool(event.get("aborts")),
    )


def _clocked(record: GameRecord, clock: dict) -> GameRecord:
    """A game without a clock takes one (at a join, before it starts)."""
    bank = clock["bank_seconds"] * 1000
    return replace(record, clock=dict(clock), bank_ms=(bank,) * len(record.players))


def _start(record: GameRecord, opening: list[dict]) -> GameRecord:
    return replace(record, state=record.rules.fold(opening))


_FIELDS = tuple(item.name for item in fields(GameRecord))
