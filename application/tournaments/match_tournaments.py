"""A tournament whose games are two-board matches (`"match": "two_boards"`, keltis-dice):
game `index` of the schedule is two games with the same
seats, the first on the `basic` board (id `<tid>-g<index>`), the second on the `advanced`
board (id `<tid>-g<index>-b2`). Each board's seed derives from the tournament's secret seed
material (tournaments.seeds.board_seed), never from the other board's: the first board's
replay, public once it is over, must not predict the second's rolls. Both games are unrated;
the match's one outcome (scores added, application.tournaments.matches.result_of) goes into the
standings and, as ONE ladder entry keyed by the first game's id, into the ladder. Every step
is safe to repeat (a job run twice finds the games made and the ladder entry written).

Built-in bots played whole go through `play_match` (a game job); a turn-by-turn tournament
(account entries, searching bots) through `step` from application.tournaments.open_tournaments'
pass,
which makes the second game once the first is over and records the match once both are.

A match whose first game ended before every seat made a move of its own (an absent account
timed out or resigned first) is aborted, as a rated game is (gamelog.outcome) and as a
challenge's match is (application.tournaments.matches): void, no second game, no result in the
standings
and no ladder entry, so an absent entrant is no one's win. A seat that played the first game
is in the match: a forfeit after that, on either board, is its loss."""

from __future__ import annotations

from dataclasses import replace

from application.games.errors import GameNotFound, VersionConflict
from application.games.service import GameService
from application.tournaments.matches import BOARDS, result_of, second_game_id, summed_ladder_entry
from application.tournaments.tournament_games import finish, outcome_of, placement, players_of
from gamelog.outcome import VOID_ABORTED
from gamelog.outcome import outcome_of as game_outcome
from gamelog.record import GameRecord
from gamelog.results import aborted
from ladder.entries import LadderEntry
from store.ladder.records import LadderStore
from store.tournaments.records import TournamentStore
from tournaments import seeds
from tournaments.spec import TournamentSpec
from tournaments.standings import GameOutcome


def board_game(
    service: GameService, spec: TournamentSpec, tid: str, index: int, board: int
) -> GameRecord:
    """The game on board `board` (0 basic, 1 advanced) of match `index`: made, or read."""
    planned = spec.plan(index)
    first_id = seeds.game_id(tid, index)
    seed = seeds.board_seed(spec.seed, planned.deal, BOARDS[board], spec.salt)
    game_id = second_game_id(first_id) if board else first_id
    try:
        record, _, _ = service.create(
            spec.game,
            players_of(spec, planned.entries),
            {**spec.game_options, "board": BOARDS[board]},
            game_id=game_id,
            seed=seed,
            clock=spec.game_clock,
            tournament={**placement(spec, tid, index), "board": BOARDS[board]},
            aborts=board == 0,  # a seat that never moves voids the match: the game says so
        )
    except VersionConflict:  # a run before this one made it
        record = service.load(game_id)[0]
    return record


def play_match(
    service: GameService, store: TournamentStore, tid: str, spec: TournamentSpec, index: int
) -> bool:
    """Play (or finish, or read) both games of match `index`, then record its one outcome
    and its ladder entry; True if this call recorded it."""
    first = finish(service, board_game(service, spec, tid, index, 0))
    if game_outcome(first) is not None and first_void(first):  # the match is void
        return record_match(service, store, tid, spec, index, [first])
    second = finish(service, board_game(service, spec, tid, index, 1))
    return record_match(service, store, tid, spec, index, [first, second])


def step(
    service: GameService,
    store: TournamentStore,
    tid: str,
    spec: TournamentSpec,
    index: int,
    cancelled: bool = False,
) -> tuple[GameRecord | None, bool]:
    """Move match `index` of a turn-by-turn tournament on: (its game in play or None, whether
    this call recorded its outcome). The second game is made once the first is over (not
    void; not once the tournament is `cancelled`); the outcome is recorded once both are
    over, or when either is void (but a game cancelled with its tournament records none)."""
    try:
        first = service.load(seeds.game_id(tid, index))[0]
    except GameNotFound:  # marked started only after its creation: never expected
        return None, False
    if game_outcome(first) is None:
        return first, False
    if first_void(first):
        return None, not cancelled and record_match(service, store, tid, spec, index, [first])
    if cancelled:
        try:
            second = service.load(second_game_id(first.game_id))[0]
        except GameNotFound:  # never started: the match counts among the cancelled
            return None, False
    else:
        second = board_game(service, spec, tid, index, 1)
    ended = game_outcome(second)
    if ended is None:
        return second, False
    if cancelled and ended.void:
        return None, False
    return None, record_match(service, store, tid, spec, index, [first, second])


def first_void(first: GameRecord) -> str | None:
    """Why the first game (over) of a match voids it: its own void (cancelled, expired), or
    `aborted` when a seat never made a move of its own; None when the match goes on."""
    void = game_outcome(first).void
    if void is None and aborted(True, first.cancelled, len(first.moved), len(first.players)):
        return VOID_ABORTED
    return void


def record_match(
    service: GameService,
    store: TournamentStore,
    tid: str,
    spec: TournamentSpec,
    index: int,
    records: list[GameRecord],
) -> bool:
    """Record the outcome of match `index` from its games that are over (the last void:
    the match is void; the first alone: void or aborted, `first_void`), and its one ladder
    entry; True if this call recorded it."""
    void = first_void(records[0]) if len(records) == 1 else game_outcome(records[-1]).void
    if void:
        outcome = outcome_of(spec, index, records[-1])
        outcome = replace(outcome, game_id=records[0].game_id, winners=(), void=void)
        return store.record_outcome(tid, outcome, spec.games, spec.deal_games(index))
    first, second = records
    result = result_of({}, records)
    planned = spec.plan(index)
    outcome = GameOutcome(
        index,
        first.game_id,
        planned.entries,
        tuple(result["scores"]),
        tuple(result["winners"]),
        planned.deal,
        tuple(a + b for a, b in zip(first.timeouts, second.timeouts, strict=True)),
        tuple(result["forfeited"]),
        tuple(result["ranks"]),
    )
    if spec.rated:
        LadderStore(service.client).append(_ladder_entry(first, result))
    return store.record_outcome(tid, outcome, spec.games, spec.deal_games(index))


def _ladder_entry(first: GameRecord, result: dict) -> LadderEntry:
    return summed_ladder_entry(first.game_id, first.game, first.players, result)
