"""One tournament game from its seating to its outcome: who sits where, where the game stands
in its tournament, its bots playing it out, the outcome the standings read. Shared by
tournaments of single games (application.tournaments.service) and of two-board matches
(application.tournaments.match_tournaments)."""

from __future__ import annotations

from application.bots.turns import play_out
from application.games.errors import VersionConflict
from application.games.service import GameService
from domain.errors import DomainError
from gamelog.outcome import outcome_of as game_outcome
from gamelog.record import GameRecord
from tournaments.schedule import DUPLICATE
from tournaments.spec import TournamentSpec, account_name, is_account
from tournaments.standings import GameOutcome, entry_labels

MAX_APPEND_ATTEMPTS = 5


class TournamentGameStuck(DomainError):
    """A tournament game could not be finished (no legal move, or too many commands)."""

    code = "tournament_game_stuck"


def players_of(spec: TournamentSpec, entries) -> list[dict]:
    """The seats of a game: a built-in bot named after its entry's label, or an account."""
    labels = entry_labels(spec.bots)
    return [
        {"account": account_name(spec.bots[entry])}
        if is_account(spec.bots[entry])
        else {"name": labels[entry], "bot": spec.bots[entry]}
        for entry in entries
    ]


def placement(spec: TournamentSpec, tid: str, index: int) -> dict:
    """Where game `index` stands in its tournament (`game_created`'s `tournament`)."""
    planned = spec.plan(index)
    placed = {"id": tid, "index": index, "deal": planned.deal, "open": spec.turn_by_turn}
    if spec.format == DUPLICATE:
        placed["deal_games"] = list(spec.deal_games(index))
    return placed


def finish(service: GameService, record: GameRecord) -> GameRecord:
    """Let the bots finish the game; the rest of it is appended as one atomic batch."""
    for _ in range(MAX_APPEND_ATTEMPTS):
        if record.finished:
            return record
        if not record.started:
            raise TournamentGameStuck(f"game {record.game_id} has not started")
        entries, after = play_out(record, service.clock())
        if service.append_batch(record, entries, after):
            return after
        record = service.load(record.game_id)[0]  # someone else moved it on: continue
    raise VersionConflict("the game kept moving under this job", record.version)


def outcome_of(spec: TournamentSpec, index: int, record: GameRecord) -> GameOutcome:
    """The outcome of a tournament game that is over, however it ended (its rules' end,
    forfeits, a resignation, a cancellation or an expiry): its seating, deal and the
    per-seat outcome that the ladder reads too (gamelog.outcome), with its timeouts.
    TournamentGameStuck for a game that is not over."""
    ended = game_outcome(record)
    if ended is None:
        raise TournamentGameStuck(f"game {record.game_id} is not over")
    planned = spec.plan(index)
    return GameOutcome(
        index,
        record.game_id,
        planned.entries,
        ended.scores,
        ended.winners,
        planned.deal,
        record.timeouts,
        ended.forfeited,
        ended.ranks,
        ended.ended,
        ended.void,
    )
