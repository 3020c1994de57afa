"""Turn clocks: a deadline that passed, a resignation, a forfeit.

Each is a batch of service events appended with the expected version like any move, so a
move that wins the race makes the timeout's append conflict (one of them per version), and a
timeout run twice, or by several workers, is appended once. The fallback move is the
fallback bot's choice with the game's bot random source at the timed-out version: anyone
holding the log and the seed re-derives it (replays.verify).
"""

from __future__ import annotations

import logging

from application.accounts.errors import Unauthenticated
from application.games.errors import (
    GameAlreadyOver,
    GameNotFound,
    GameNotStarted,
    SeatForfeited,
    VersionConflict,
)
from application.games.service import GameService
from application.metrics import counters as metrics
from domain.autoplay import bot_rng, choose_move
from domain.chance import Chance
from gamelog import events as log_events
from gamelog.entries import Entry, make_batch
from gamelog.errors import CorruptLog
from gamelog.record import GameRecord, fold_entries
from store.games import index

log = logging.getLogger(__name__)

DUE_BATCH = 200
RETRY_FAILED_MS = 60_000  # a game whose timeout failed is tried again this much later
DEADLINE = "deadline"  # the reason of a timeout whose deadline passed


def fallback_move(record: GameRecord, seat: int, version: int) -> dict:
    """The move the game's fallback bot makes for `seat` at `version` (deterministic)."""
    bot = record.rules.bots[record.fallback]
    rng = bot_rng(record.seed_hex, record.game_id, version)
    return dict(choose_move(record.rules, record.state, seat, bot, rng).move)


def forfeit_events(record: GameRecord, seat: int, reason: str) -> list[dict]:
    """`seat_forfeited`, and `game_ended_early` when one seat is left in play."""
    found = [log_events.seat_forfeited(seat, reason)]
    if len([s for s in record.in_play if s != seat]) <= 1:
        found.append(log_events.game_ended_early("forfeit"))
    return found


def timeout_batch(
    record: GameRecord, at: int, reason: str = DEADLINE
) -> tuple[list[Entry], GameRecord]:
    """The entries of a timeout of the seat to move at `record`'s version, and the record
    after them: `turn_timed_out` (with its `reason`), `seat_forfeited` at max_timeouts (and
    `game_ended_early` when one seat is left), then the fallback move unless the game ended."""
    seat, version = record.to_move, record.version
    service_events = [log_events.turn_timed_out(seat, version, reason)]
    if record.timeouts[seat] + 1 >= record.clock["max_timeouts"]:
        service_events += forfeit_events(record, seat, "timeouts")
    entries = make_batch(version + 1, service_events, at, None, None)
    after = fold_entries(record, record.game_id, entries)
    if after.finished:
        return entries, after
    move = fallback_move(record, seat, version)
    moved = record.rules.decide(record.state, seat, move, Chance.from_hex(record.seed_hex))
    played = make_batch(after.version + 1, moved, at, seat, move)
    return entries + played, fold_entries(after, record.game_id, played)


def time_out(
    service: GameService,
    game_id: str,
    expected_version: int | None = None,
    reason: str = DEADLINE,
) -> bool:
    """Time out the seat to move if its deadline has passed; True when this call appended the
    timeout. `expected_version` (None: the newest) is the version whose deadline passed;
    nothing is appended once the game has moved on. Another `reason` (a webhook bot's
    failed answer: application.bots.webhook_turns) times the turn out before its deadline."""
    record, _, _ = service.load(game_id)
    if expected_version is not None and record.version != expected_version:
        return False
    now = service.clock()
    deadline = record.deadline
    if deadline is None or (reason == DEADLINE and deadline > now):
        service.refresh_index(record)  # the index was behind (or ahead): correct it
        return False
    entries, after = timeout_batch(record, now, reason)
    appended = service.append_batch(record, entries, after)
    if appended and reason == DEADLINE:
        metrics.timed_out_late(record.game, (now - deadline) / 1000)
    return appended


def time_out_due(service: GameService, limit: int = DUE_BATCH) -> int:
    """Time out every game whose deadline has passed (the `deadlines` index); the number of
    timeouts appended by this call.

    A game whose timeout fails (a game type no worker knows any more, a fallback bot's error)
    is logged and tried again RETRY_FAILED_MS later: its entry moves back in the index, so
    broken games do not stay at the head of the due batch (its oldest entries), crowding out
    the others, nor log a traceback on every sweep."""
    appended = 0
    now = service.clock()
    for game_id, deadline in index.deadlines_due(service.client, now, limit):
        try:
            appended += time_out(service, game_id)
        except (GameNotFound, CorruptLog):  # the index outlived the log: forget the entry
            index.forget_deadline(service.client, game_id)
        except Exception:  # one broken game must not stop the clocks of the others
            log.exception(
                "game %s: its timeout failed; tried again in %d s",
                game_id,
                RETRY_FAILED_MS // 1000,
            )
            index.defer_deadline(service.client, game_id, deadline, now + RETRY_FAILED_MS)
    return appended


def resign(
    service: GameService, game_id: str, token: str | None, wanted: int | None = None
) -> tuple[GameRecord, int]:
    """The token's seat (`wanted`, named by X-Keltis-Seat, if the token holds it) forfeits:
    its fallback bot plays its turns, it ranks last, and a game left with one seat in play
    ends at once. The record after, and the seat."""
    if token is None:
        raise Unauthenticated("a seat's bearer token is required")
    for _ in range(8):
        record, seat = service.read(game_id, token, wanted)
        if seat is None:
            raise Unauthenticated("a seat's bearer token is required")
        if not record.started:
            raise GameNotStarted("the game waits for players to join")
        if record.finished:
            raise GameAlreadyOver("the game is over")
        if seat in record.forfeited:
            raise SeatForfeited(f"seat {seat} has forfeited already")
        events = forfeit_events(record, seat, "resigned")
        entries = make_batch(record.version + 1, events, service.clock(), None, None)
        after = fold_entries(record, game_id, entries)
        if service.append_batch(record, entries, after):
            return after, seat
    raise VersionConflict("the game is too busy; try again", record.version)
