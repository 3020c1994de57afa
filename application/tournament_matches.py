"""A tournament whose games are two-board matches (`"match": "two_boards"`, keltis-dice,
built-in bots played whole): game `index` of the schedule is two games with the same
seats, the first on the `basic` board (id `<tid>-g<index>`), the second on the `advanced`
board (id `<tid>-g<index>-b2`, its seed derived from the first's). Both games are unrated;
the match's one outcome (scores added, application.matches.result_of) goes into the
standings and, as ONE ladder entry keyed by the first game's id, into the ladder. Every step
is safe to repeat (a job run twice finds the games made and the ladder entry written)."""

from __future__ import annotations

import hashlib

from application.errors import VersionConflict
from application.games import GameService
from application.matches import BOARDS, result_of, second_game_id
from application.tournaments import finish, outcome_of, placement, players_of
from gamelog.outcome import outcome_of as game_outcome
from gamelog.record import GameRecord
from ladder.entries import LadderEntry, LadderSeat
from store.ladder import LadderStore
from store.tournaments import TournamentStore
from tournaments import seeds
from tournaments.spec import TournamentSpec
from tournaments.standings import GameOutcome


def board_game(
    service: GameService, spec: TournamentSpec, tid: str, index: int, board: int
) -> GameRecord:
    """The game on board `board` (0 basic, 1 advanced) of match `index`: made, or read."""
    planned = spec.plan(index)
    first_id = seeds.game_id(tid, index)
    seed = seeds.game_seed(spec.seed, planned.deal, spec.salt)
    game_id = first_id
    if board:
        game_id = second_game_id(first_id)
        seed = hashlib.sha256(seed + b":" + BOARDS[board].encode()).digest()
    try:
        record, _, _ = service.create(
            spec.game,
            players_of(spec, planned.entries),
            {**spec.game_options, "board": BOARDS[board]},
            game_id=game_id,
            seed=seed,
            tournament={**placement(spec, tid, index), "board": BOARDS[board]},
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
    ended = game_outcome(first)
    if ended is not None and ended.void:  # cancelled: the match is void
        outcome = outcome_of(spec, index, first)
        return store.record_outcome(tid, outcome, spec.games, spec.deal_games(index))
    second = finish(service, board_game(service, spec, tid, index, 1))
    records = [first, second]
    if game_outcome(second).void:
        outcome = outcome_of(spec, index, second)
        return store.record_outcome(tid, outcome, spec.games, spec.deal_games(index))
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
    LadderStore(service.client).append(_ladder_entry(first, result))
    return store.record_outcome(tid, outcome, spec.games, spec.deal_games(index))


def _ladder_entry(first: GameRecord, result: dict) -> LadderEntry:
    seats = []
    for n, player in enumerate(first.players):
        name, bot = (player["account"], False) if player.get("account") else (player["bot"], True)
        seats.append(
            LadderSeat(
                name,
                bot,
                result["scores"][n],
                result["ranks"][n],
                n in result["winners"],
                n in result["forfeited"],
            )
        )
    return LadderEntry(first.game_id, first.game, result["finished_at"], tuple(seats))
