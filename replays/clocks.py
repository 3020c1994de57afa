"""Verifying a game's turn clock in a replay: timeouts, forfeits, an early end, and every
move the fallback bot made (after a timeout, or for a forfeited seat), re-derived from the
seed as the service derived it (application.games.clocks, application.bots.turns)."""

from __future__ import annotations

from domain.autoplay import bot_rng, choose_move
from domain.errors import DomainError
from domain.game import GameRules
from gamelog.events import (
    BOT_FALLBACK,
    ENDED_CANCELLED,
    GAME_ENDED_EARLY,
    SEAT_FORFEITED,
    SEAT_JOINED,
    SERVICE_EVENTS,
    TURN_TIMED_OUT,
)
from gamelog.record import DEFAULT_FALLBACK
from replays.canonical import json_ready
from replays.diff import first_difference
from replays.errors import ReplayError
from replays.log import Batch
from replays.shown import quote


class ClockFault(ReplayError):
    """A timeout, forfeit or fallback move the log holds is not what the service does."""


def created_with_clock(log) -> dict:
    """`game_created`, with the clock a join gave a game created without one (a webhook
    account joined: application.games.service.join)."""
    created = log.created
    if isinstance(created.get("clock"), dict):
        return created
    for entry in log.entries[1:]:
        event = entry["e"]
        if event["type"] not in SERVICE_EVENTS:
            break
        if event["type"] == SEAT_JOINED and isinstance(event.get("clock"), dict):
            return {**created, "clock": event["clock"]}
    return created


class ClockCheck:
    """Walks a game's service entries and bot-played moves alongside the re-run."""

    def __init__(self, rules: GameRules, created: dict, game_id: str, seed_hex: str, seats: int):
        self.rules = rules
        self.game_id = game_id
        self.seed_hex = seed_hex
        self.seats = seats
        clock = created.get("clock") if isinstance(created.get("clock"), dict) else None
        self.clock = clock
        bots = rules.bots
        self.fallback = (clock or {}).get("fallback") or (
            DEFAULT_FALLBACK if DEFAULT_FALLBACK in bots else sorted(bots)[0]
        )
        self.timeouts = [0] * seats
        self.forfeited: set[int] = set()
        self.budget_seats: frozenset[int] = frozenset()  # bot_fallback: moved by budget_bot
        self.budget_bot: str | None = None
        self.ended = False
        self.timed_out: tuple[int, int] | None = None  # (seat, version) awaiting its move

    def service(self, entries, state) -> None:
        """Check in-play service entries (in order) against the state they follow."""
        for entry in entries:
            event, n = entry["e"], entry["n"]
            if self.ended:
                raise ClockFault(f"{event['type']} after the game ended", n)
            if event["type"] == TURN_TIMED_OUT:
                self._timed_out(event, n, state)
            elif event["type"] == SEAT_FORFEITED:
                self._forfeited(event, n)
            elif event["type"] == BOT_FALLBACK:
                self._bot_fallback(event, n)
            elif event["type"] == GAME_ENDED_EARLY:
                cancelled = event.get("reason") == ENDED_CANCELLED
                if not cancelled and len(self.forfeited) < self.seats - 1:
                    raise ClockFault("game_ended_early with more than one seat in play", n)
                self.ended = True

    def _timed_out(self, event: dict, n: int, state) -> None:
        if self.clock is None:
            raise ClockFault("turn_timed_out in a game without a clock", n)
        seat = event["seat"]
        if seat != self.rules.to_move(state):
            raise ClockFault(f"turn_timed_out names seat {seat}, not the seat to move", n)
        if event.get("version") != n - 1:
            raise ClockFault(f"turn_timed_out names version {quote(event.get('version'))}", n)
        self.timeouts[seat] += 1
        self.timed_out = (seat, n - 1)

    def _forfeited(self, event: dict, n: int) -> None:
        seat, reason = event["seat"], event.get("reason")
        if seat in self.forfeited:
            raise ClockFault(f"seat {seat} forfeits twice", n)
        if reason == "timeouts":
            if self.clock is None or self.timeouts[seat] < self.clock.get("max_timeouts", 0):
                raise ClockFault(f"seat {seat} forfeits for timeouts before max_timeouts", n)
        elif reason not in ("resigned", "bot_failed"):  # bot_failed: application.games.stalls
            raise ClockFault(f"seat_forfeited gives no known reason: {quote(reason)}", n)
        self.forfeited.add(seat)

    def _bot_fallback(self, event: dict, n: int) -> None:
        seats = event.get("seats")
        if not isinstance(seats, list) or any(
            type(seat) is not int or not 0 <= seat < self.seats for seat in seats
        ):
            raise ClockFault(f"bot_fallback names no seats of this game: {quote(seats)}", n)
        bot = event.get("bot")
        if seats and (not isinstance(bot, str) or bot not in self.rules.bots):
            raise ClockFault(f"bot_fallback names no bot of this game: {quote(bot)}", n)
        self.budget_seats, self.budget_bot = frozenset(seats), bot

    def check_move(self, batch: Batch, state) -> None:
        """The batch's command must be the fallback bot's when a timeout, a forfeit or a
        spent budget (bot_fallback) put that bot in the seat's place; `state` is the state
        before it."""
        if self.ended:
            raise ClockFault("a command after the game ended", batch.n)
        timed_out, self.timed_out = self.timed_out, None
        if timed_out is not None:
            seat, version = timed_out
            if batch.by != seat:
                raise ClockFault(f"after seat {seat}'s timeout, seat {batch.by} moved", batch.n)
            name = self.fallback
        elif batch.by in self.forfeited:  # the fallback plays a forfeited seat (a bot's too)
            version, name = batch.n - 1, self.fallback
        elif batch.by in self.budget_seats:  # bot_fallback: the cheap bot plays a bot's seat
            version, name = batch.n - 1, self.budget_bot
        else:
            return
        try:
            bot = self.rules.bots[name]
            rng = bot_rng(self.seed_hex, self.game_id, version)
            expected = json_ready(choose_move(self.rules, state, batch.by, bot, rng).move)
        except (DomainError, KeyError) as error:
            raise ClockFault(f"the fallback bot cannot move: {quote(error)}", batch.n) from None
        difference = first_difference(expected, batch.cmd)
        if difference:
            raise ClockFault(
                f"seat {batch.by}'s command {quote(batch.cmd)} is not the fallback bot's move "
                f"{difference} (expected = fallback bot, found = log)",
                batch.n,
            )
