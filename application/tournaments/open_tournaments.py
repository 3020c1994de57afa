"""Open tournaments: games with account entrants, played turn by turn on the service.

An account's moves come from its webhook or its stream client, built-in bots move on
workers, and the tournament's clock applies (application.games.clocks plays for a vanished client).
`advance` moves a tournament on: it records the outcome of each game that is over, however it
ended (its rules' end, forfeits, a resignation, a stalled bot's timeouts, a cancellation of
the game alone: void, an expiry: void; application.tournaments.service.outcome_of), and
launches the next games, at most `concurrency` running at once and, unless
`parallel_per_account`, no account in two running games. Once the tournament is cancelled it
launches nothing more and marks its running games cancelled (unrated, no outcome).

One process advances a tournament at a time (a lease in Redis); a caller that finds the
lease taken asks again (`tournaments_due`), so no finish is overlooked. It runs when one of
the tournament's games finishes (the index files the tournament as due; the workers'
TournamentThread drains it), at creation, and from the sweep. Running it twice does no harm:
a game is created under its fixed id once, an outcome is recorded once.
"""

from __future__ import annotations

import logging
import secrets
from collections import Counter
from dataclasses import dataclass, field

from application.games.cancel import cancel_game
from application.games.errors import GameNotFound
from application.games.service import GameService
from application.tournaments import entries as tournament_entries
from application.tournaments import match_tournaments as tournament_matches
from application.tournaments import service as tournaments
from gamelog.outcome import is_over
from gamelog.outcome import outcome_of as game_outcome
from gamelog.record import GameRecord
from store.tournaments.records import TournamentStore
from tournaments import seeds
from tournaments.errors import TournamentOver
from tournaments.spec import TWO_BOARDS, TournamentSpec, account_name, is_account

log = logging.getLogger(__name__)

TICK_LEASE_MS = 30_000


@dataclass
class Advanced:
    """What one `advance` did."""

    recorded: list[int] = field(default_factory=list)
    launched: list[int] = field(default_factory=list)
    cancelled: list[int] = field(default_factory=list)
    busy: bool = False  # another process held the lease: asked again


def accounts_of(spec: TournamentSpec, index: int) -> set[str]:
    """The (lower-cased) accounts seated in game `index`."""
    return {
        account_name(spec.bots[entry]).lower()
        for entry in spec.plan(index).entries
        if is_account(spec.bots[entry])
    }


def advance(service: GameService, store: TournamentStore, tid: str) -> Advanced:
    """Record finished games, then launch (or, once cancelled, cancel) games."""
    token = secrets.token_hex(8)
    if not store.begin_tick(tid, token, TICK_LEASE_MS):
        store.mark_due(tid)  # the holder may have read before our game finished: again soon
        return Advanced(busy=True)
    try:
        return _advance(service, store, tid)
    finally:
        store.end_tick(tid, token)


def _advance(service: GameService, store: TournamentStore, tid: str) -> Advanced:
    spec, _ = store.load(tid)
    done = Advanced()
    if not spec.turn_by_turn:
        return done
    if tournament_entries.waiting(store, tid) and not store.is_cancelled(tid):
        return done  # an invited account has not entered: no game of it starts
    started = store.started(tid)
    recorded = store.recorded_indexes(tid)
    cancelled = store.is_cancelled(tid)
    running: list[GameRecord] = []
    for index in sorted(started - recorded):
        if spec.match == TWO_BOARDS:  # a match: its game in play, or its outcome recorded
            record, made = tournament_matches.step(service, store, tid, spec, index, cancelled)
            if made:
                done.recorded.append(index)
            if record is not None:
                running.append(record)
            continue
        record = _game(service, tid, index)
        if record is None:
            continue
        if not is_over(record):
            running.append(record)
        elif cancelled and game_outcome(record).void:
            continue  # cancelled with its tournament: counted among the cancelled games
        elif tournaments.record_game(service, store, tid, spec, index, record):
            done.recorded.append(index)
    if cancelled:
        for record in running:
            if cancel_game(service, record):
                done.cancelled.append(record.tournament["index"])
        return done
    busy = Counter(a for r in running for a in accounts_of(spec, r.tournament["index"]))
    free = spec.concurrency - len(running)
    for index in range(spec.games):
        if free <= 0:
            break
        if index in started:
            continue
        seated = accounts_of(spec, index)
        if not spec.parallel_per_account and any(busy[a] for a in seated):
            continue
        if spec.match == TWO_BOARDS:
            tournament_matches.board_game(service, spec, tid, index, 0)
        else:
            tournaments.load_or_create(service, spec, tid, index)
        store.mark_started(tid, index)
        busy.update(seated)
        free -= 1
        done.launched.append(index)
    return done


def _game(service: GameService, tid: str, index: int) -> GameRecord | None:
    try:
        return service.load(seeds.game_id(tid, index))[0]
    except GameNotFound:  # marked started only after its creation: never expected
        log.error("tournament %s: game %d is marked started but has no log", tid, index)
        return None


def cancel(service: GameService, store: TournamentStore, tid: str, token: str | None) -> dict:
    """The organiser cancels the tournament: no game starts any more, the games in play are
    marked cancelled (unrated); finished games keep their outcomes. TournamentOver when it
    was finished or cancelled already. The tournament's summary."""
    spec, _ = store.load(tid)
    tournaments.check_organiser(store, tid, token)
    if store.done(tid) >= spec.games or not store.cancel(tid):
        raise TournamentOver("the tournament is over already")
    if spec.turn_by_turn:
        advance(service, store, tid)
    return tournaments.describe(store, tid)


def advance_due(service: GameService, store: TournamentStore, limit: int = 50) -> int:
    """Advance the tournaments filed as due (a game of theirs finished); how many."""
    due = store.take_due(limit)
    for tid in due:
        try:
            advance(service, store, tid)
        except Exception:  # one broken tournament must not stop the others
            log.exception("tournament %s: advancing failed", tid)
    return len(due)


def advance_running(service: GameService, store: TournamentStore) -> int:
    """Advance every running open tournament (the sweep's safety net); how many."""
    count = 0
    for tid in store.running():
        try:
            spec, _ = store.load(tid)
            if spec.turn_by_turn:
                advance(service, store, tid)
                count += 1
        except Exception:
            log.exception("tournament %s: advancing failed", tid)
    return count
