"""Stalled games: a bot turn that raised STALL_AFTER times at one version is not retried
again at that version; the game shows `stalled` until it moves on. When it has a clock, the
clock plays the fallback move instead (a `turn_timed_out` with reason `bot_failed`, as a
deadline would, application.games.clocks), and the game goes on. A tournament game without a
clock has the stalled bot's seat forfeit instead (reason `bot_failed`), so its tournament
goes on."""

from __future__ import annotations

import logging

from application.games import clocks
from application.games.service import GameService
from gamelog.entries import make_batch
from gamelog.record import GameRecord, fold_entries
from store.games.stalls import Stall, StallStore

log = logging.getLogger(__name__)

BOT_FAILED = "bot_failed"  # the reason of the timeout a clock appends for a stalled bot


def reason_of(record: GameRecord, error: BaseException) -> str:
    """Why a bot turn failed, naming no hidden information (the bot and the error's type;
    its message, which may quote a hand, goes to the worker's log only)."""
    seat = record.to_move
    bot = record.bot_of(seat) if seat is not None else None
    return f"the bot {bot!r} of seat {seat} raised {type(error).__name__}"


def bot_failed(service: GameService, record: GameRecord, error: BaseException) -> Stall:
    """Count a failure of the bot turn due at `record`; at the STALL_AFTER-th, a game with a
    clock has the fallback move played instead."""
    log.error("game %s v%d: bot turn failed: %r", record.game_id, record.version, error)
    stall = StallStore(service.client).failed(
        record.game_id, record.version, reason_of(record, error), service.clock()
    )
    if stall.stalled and _given_up(service, record):
        StallStore(service.client).clear(record.game_id)
    return stall


def _given_up(service: GameService, record: GameRecord) -> bool:
    """The stalled turn is taken from the bot: by the clock, or, in a tournament game
    without one, by the bot's forfeit (its tournament must go on); False when nothing was
    appended (a game without a clock outside tournaments stays stalled for an operator)."""
    if record.clock is not None:
        return play_fallback(service, record)
    if record.tournament:
        return forfeit_stalled(service, record)
    return False


def forfeit_stalled(service: GameService, record: GameRecord) -> bool:
    """The stalled bot's seat forfeits (`seat_forfeited`, reason `bot_failed`; the game ends
    when one seat is left in play, else the fallback bot plays the seat's turns); False
    when it could not be appended (the game moved on) or the seat forfeited already."""
    seat = record.to_move
    if seat is None or seat in record.forfeited:
        return False
    found = clocks.forfeit_events(record, seat, BOT_FAILED)
    entries = make_batch(record.version + 1, found, service.clock(), None, None)
    return service.append_batch(record, entries, fold_entries(record, record.game_id, entries))


def play_fallback(service: GameService, record: GameRecord) -> bool:
    """The clock's turn in a stalled bot's place: `turn_timed_out` (reason `bot_failed`),
    then the fallback bot's move; False when it could not be appended (the game moved on,
    or the fallback bot fails too)."""
    try:
        entries, after = clocks.timeout_batch(record, service.clock(), BOT_FAILED)
    except Exception as error:  # the fallback bot is broken as well: the game stays stalled
        log.error("game %s v%d: the fallback bot failed: %r", record.game_id, record.version, error)
        return False
    return service.append_batch(record, entries, after)


def stall_of(service: GameService, record: GameRecord) -> dict | None:
    """`{"since", "reason"}` when the game is stalled at its current version, else None."""
    stall = StallStore(service.client).get(record.game_id)
    if stall is None or not stall.stalled or stall.version != record.version:
        return None
    return {"since": stall.since, "reason": stall.reason}


def stalled_games(service: GameService) -> list[dict]:
    """Every game stalled at its current version (the others are forgotten): id, version,
    since, reason, failures."""
    store = StallStore(service.client)
    found = []
    for game_id in store.stalled_games():
        stall = store.get(game_id)
        length = service.store.length(game_id)
        if stall is None or not stall.stalled or stall.version != length:
            store.clear(game_id)
            continue
        found.append(
            {
                "id": game_id,
                "version": stall.version,
                "since": stall.since,
                "reason": stall.reason,
                "failures": stall.failures,
            }
        )
    return found
