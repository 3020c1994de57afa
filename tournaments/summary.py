"""The public summary of a tournament (what GET /v1/tournaments/{id} answers)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from tournaments import schedule, seeds
from tournaments.spec import TWO_BOARDS, TournamentSpec
from tournaments.standings import (
    GameOutcome,
    pairs,
    results,
    scores_by_entry,
    standings,
    win_totals,
)


class StandingsTable(NamedTuple):
    """The standings of a tournament: one row per entry, and the pairs table."""

    rows: list[dict]
    pairs: list[dict]


RUNNING = "running"
FINISHED = "finished"
CANCELLED = "cancelled"


@dataclass(frozen=True)
class Progress:
    """How many games are finished, running, waiting to start, and cancelled."""

    finished: int
    running: int = 0
    waiting: int = 0
    cancelled: int = 0

    def to_dict(self, total: int) -> dict:
        return {
            "done": self.finished,
            "total": total,
            "finished": self.finished,
            "running": self.running,
            "waiting": self.waiting,
            "cancelled": self.cancelled,
        }


def status_of(spec: TournamentSpec, done: int, cancelled: bool = False) -> str:
    if done >= spec.games:
        return FINISHED
    return CANCELLED if cancelled else RUNNING


def status_from(spec: TournamentSpec, progress: Progress, cancelled: bool) -> str:
    """The status from the progress: finished once every game is over (finished, or void
    in a tournament that goes on: a game cancelled alone), else running or cancelled."""
    done = progress.finished if cancelled else progress.finished + progress.cancelled
    return status_of(spec, done, cancelled)


def summary(
    tournament_id: str,
    spec: TournamentSpec,
    created_at: int,
    progress: Progress | int,
    table: StandingsTable,
    finished_at: int | None,
    archive: str,
    cancelled_at: int | None = None,
    settled: bool = False,
) -> dict:
    """Spec, progress, standings and game ids. Seed and salt show only once every game is
    over (R2: a live game's deck follows from them); until then a SHA-256 commits to them.
    A cancelled tournament shows them once no game of it is live (`settled`), so the games
    it played can be checked against the commitment too (its unplayed deals are never
    played)."""
    if isinstance(progress, int):
        progress = Progress(progress)
    status = status_from(spec, progress, cancelled_at is not None)
    shown = status == FINISHED or (cancelled_at is not None and settled)
    return {
        "id": tournament_id,
        "game": spec.game,
        "bots": list(spec.bots),
        "players_per_game": spec.players_per_game,
        "options": spec.game_options,
        "games": spec.games,
        "status": status,
        "progress": progress.to_dict(spec.games),
        "format": spec.format,
        "games_per_table": spec.games_per_table or None,
        "concurrency": spec.concurrency,
        "parallel_per_account": spec.parallel_per_account,
        "match": spec.match,
        "rated": spec.rated,
        "clock": spec.game_clock,
        "block_size": schedule.block_size(len(spec.bots), spec.players_per_game),
        "seed": spec.seed if shown else None,
        "salt": spec.salt if shown else None,
        "seed_sha256": seeds.seed_sha256(spec.seed, spec.salt),
        "created_at": created_at,
        "finished_at": finished_at,
        "cancelled_at": cancelled_at,
        "standings": table.rows,
        "pairs": table.pairs,
        "game_ids": [seeds.game_id(tournament_id, index) for index in range(spec.games)],
        "archive": archive,
    }


def export_document(summary_: dict, spec: TournamentSpec, outcomes: list[GameOutcome]) -> dict:
    """standings.json: the summary plus every entry's scores, every counted game's outcome,
    and the indexes of the games that were cancelled (void: no result)."""
    counted = results(outcomes)
    scores = scores_by_entry(len(spec.bots), counted)
    document = dict(summary_)
    document["standings"] = [
        {**row, "scores": scores[row["entry"]]} for row in summary_["standings"]
    ]
    document["win_totals"] = win_totals(counted)
    document["outcomes"] = [_outcome_dict(spec, outcome) for outcome in counted]
    document["cancelled_games"] = [outcome.index for outcome in outcomes if outcome.void]
    return document


def _outcome_dict(spec: TournamentSpec, outcome: GameOutcome) -> dict:
    """One counted outcome in the export; a two-board match lists both its games."""
    data = outcome.to_dict()
    if spec.match == TWO_BOARDS:
        data["game_ids"] = [outcome.game_id, f"{outcome.game_id}-b2"]
    return data


def deal_size(spec: TournamentSpec) -> int:
    """Games per deal: P in duplicate (one per seat rotation), else 1."""
    return spec.players_per_game if spec.format == schedule.DUPLICATE else 1


def compute_table(spec: TournamentSpec, outcomes: list[GameOutcome]) -> StandingsTable:
    """The standings rows and the pairs table of these outcomes (void games left out)."""
    counted = results(outcomes)
    rows = standings(spec.bots, spec.players_per_game, counted)
    return StandingsTable(rows, pairs(spec.bots, counted, deal_size(spec)))
