"""Bot turns of stored games: the service's bots play from a game's newest version until a
person is to move or the game ends, appended as one batch (one round trip)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace

from application.games.service import GameService
from domain.autoplay import Turn, bot_rng, play_bots, play_to_end
from domain.bots import DEFAULT_FALLBACK
from domain.chance import Chance
from gamelog import events as log_events
from gamelog.entries import Entry, make_batch
from gamelog.record import GameRecord, fold_entries, own_move

log = logging.getLogger(__name__)

MAX_TURNS_PER_JOB = 2000


def bots_of(record: GameRecord) -> list:
    """Each seat's bot policy (None for a person's seat; a forfeited seat's is its fallback).
    Another package's bot falls back on the game's fallback bot when over its budget."""
    bots = record.rules.bots
    names = [record.bot_of(seat) for seat in range(len(record.players))]
    with_fallback = getattr(bots, "with_fallback", None)  # a plain dict: no outside bots
    if with_fallback is None:
        return [bots[name] if name else None for name in names]
    fallback = record.fallback
    return [with_fallback(name, fallback) if name else None for name in names]


def searching_turn(record: GameRecord, turn: Turn) -> bool:
    """Whether the bot of a played turn may have used a whole CPU budget (domain.bots)."""
    name = record.bot_of(turn.seat)
    searching = getattr(record.rules.bots, "searching", None)
    return bool(name) and searching is not None and searching(name)


def _one_search_per_job(record: GameRecord, turns) -> list[Turn]:
    """The turns up to and including the first one of a searching bot: a job holds its
    worker for at most one move budget, and the next bot turn becomes a job of its own,
    queued behind the other games' bot turns."""
    played = []
    for turn in turns:
        played.append(turn)
        if searching_turn(record, turn):
            break
    return played


def rng_for(record: GameRecord):
    """The bots' random source of a stored game, per version (application-wide: whoever plays
    a bot turn, a job, a rerun or a tournament, the game is the same)."""
    return lambda version: bot_rng(record.seed_hex, record.game_id, version)


def run_of_turns(record: GameRecord, turns: list[Turn], at: int) -> tuple[list[Entry], GameRecord]:
    """The entries of consecutive bot turns (one batch per command) and the record after."""
    entries: list[Entry] = []
    for turn in turns:
        if turn.fallback:
            log.warning(
                "game %s v%d: the bot of seat %d proposed an illegal move; played the first "
                "legal move instead",
                record.game_id,
                turn.version,
                turn.seat,
            )
        entries.extend(make_batch(turn.version + 1, turn.events, at, turn.seat, turn.command))
    last = turns[-1]
    version = last.version + len(last.events)
    moved = record.moved | {turn.seat for turn in turns if own_move(record, turn.seat)}
    after = replace(record, state=last.state, version=version, updated_at=at, moved=moved)
    return entries, after


def searching_seats(record: GameRecord) -> list[int]:
    """The seats in play whose own bot searches (an `mcts` level, another package's bot)."""
    searching = getattr(record.rules.bots, "searching", None)
    if searching is None:
        return []
    return [
        seat
        for seat, player in enumerate(record.players)
        if player.get("bot") and seat not in record.forfeited and searching(player["bot"])
    ]


def cheap_fallback(record: GameRecord) -> str:
    """The bot a searching bot moves by while its budget is spent: greedy (the game's
    fallback in a game without it, when that one does not search)."""
    bots = record.rules.bots
    if DEFAULT_FALLBACK in bots or bots.searching(record.fallback):
        return DEFAULT_FALLBACK
    return record.fallback


def budget_switch(record: GameRecord, spent: Callable[[GameRecord], bool] | None, at: int):
    """The `bot_fallback` entry (and the record after it) when the game's searching bots
    must start or stop moving by their cheap fallback, because their creator's bot CPU
    budget is spent or has refilled; ([], record) otherwise."""
    seats = searching_seats(record)
    if spent is None or not (seats or record.fallback_seats):
        return [], record
    now_spent = spent(record)
    if now_spent and not record.fallback_seats and seats:
        event = log_events.bot_fallback(seats, log_events.FALLBACK_BUDGET, cheap_fallback(record))
    elif not now_spent and record.fallback_seats:
        event = log_events.bot_fallback([], log_events.FALLBACK_BUDGET)
    else:
        return [], record
    entries = make_batch(record.version + 1, [event], at, None, None)
    return entries, fold_entries(record, record.game_id, entries)


def play_bot_turns(
    service: GameService,
    game_id: str,
    version: int,
    budget_spent: Callable[[GameRecord], bool] | None = None,
) -> int:
    """Play the bot turns of a game due at `version`; returns the turns played.

    Does nothing when the game is no longer at `version` (someone else moved first). The run
    is appended with its expected version, so playing it twice does no harm; a run cut at
    MAX_TURNS_PER_JOB, or after the move of a searching bot (`mcts`, another package's bot),
    leaves the next bot turn due (the scheduler takes it). `budget_spent(record)` says
    whether the game's searching bots must move by their cheap fallback
    (application.budget.service);
    a change is a `bot_fallback` entry before the run.
    """
    before, _, _ = service.load(game_id)
    if before.version != version or not before.started or before.finished:
        return 0
    switch, record = budget_switch(before, budget_spent, service.clock())
    chance = Chance.from_hex(record.seed_hex)
    turns = _one_search_per_job(
        record,
        play_bots(
            record.rules,
            record.state,
            bots_of(record),
            chance,
            rng_for(record),
            record.version,
            MAX_TURNS_PER_JOB,
        ),
    )
    if not turns:
        service.refresh_index(before)  # the index said a bot was due: correct it
        return 0
    entries, after = run_of_turns(record, turns, service.clock())
    return len(turns) if service.append_batch(before, switch + entries, after) else 0


def play_out(record: GameRecord, at: int) -> tuple[list[Entry], GameRecord]:
    """Every entry the bots of an all-bot game append from `record` to its end."""
    turns = list(
        play_to_end(
            record.rules,
            record.state,
            bots_of(record),
            Chance.from_hex(record.seed_hex),
            rng_for(record),
            record.version,
        )
    )
    if not turns:
        return [], record
    return run_of_turns(record, turns, at)
