"""What each response says about a game, for one viewer (never more than it may see, R2)."""

from __future__ import annotations

from domain.visibility import redact_event
from gamelog.entries import Entry
from gamelog.record import GameRecord
from gamelog.results import result_of
from store.games.index import public_player


def players(record: GameRecord) -> list[dict]:
    return [public_player(seat, player) for seat, player in enumerate(record.players)]


def view_for(record: GameRecord, seat: int | None, revealed: bool = False) -> dict | None:
    """The game state as `seat` may see it; everything once the game is over (`revealed`:
    an earlier version of a game that is over now)."""
    if not record.started:
        return None
    if record.finished or revealed:
        return record.rules.full_view(record.state)
    return record.rules.view(record.state, seat)


def seats(record: GameRecord) -> list[dict]:
    """Each seat as anyone may see it, with its timeouts and whether it forfeited."""
    return [
        {**public_player(seat, player), "timeouts": timeouts, "forfeited": seat in record.forfeited}
        for (seat, player), timeouts in zip(enumerate(record.players), record.timeouts, strict=True)
    ]


def legal_moves(record: GameRecord, seat: int) -> list[dict]:
    if not record.started or record.finished:
        return []
    return record.rules.legal_moves(record.state, seat)


def game(record: GameRecord, seat: int | None, revealed: bool = False) -> dict:
    """A game as `seat` may see it (`revealed`: everything, the game being over now)."""
    return {
        "id": record.game_id,
        "game": record.game,
        "options": record.options,
        "status": record.status,
        "version": record.version,
        "to_move": record.to_move,
        "players": seats(record),
        "clock": record.clock,
        "deadline": record.deadline,
        "seat": seat,
        "view": view_for(record, seat, True) if revealed else view_for(record, seat),
        "result": result_of(record),
        "rated": record.rated,
        "created_at": record.created_at,
        "updated_at": record.updated_at,
    }


def visible_entry(entry: Entry, viewer: int | None, revealed: bool) -> dict:
    """One entry as `viewer` may see it (R2)."""
    shown = {"version": entry.n, "at": entry.at, "by": entry.by}
    if entry.cmd is not None:
        shown["cmd"] = entry.cmd
    shown["event"] = redact_event(entry.event, viewer, revealed=revealed)
    return shown


def events(entries: list[Entry], seat: int | None, revealed: bool) -> list[dict]:
    return [visible_entry(entry, seat, revealed) for entry in entries]


def move_result(record: GameRecord, batch: list[Entry], seat: int, with_view: bool = True) -> dict:
    """The answer to a move: new version, the new events as `seat` sees them, its view
    (`view: null` without `with_view`: `Prefer: return=minimal`, api.core.prefer).

    Built as the MoveResult of openapi.yaml directly (every value is already of its type):
    no schema's dump on the move path."""
    return {
        "version": record.version,
        "status": record.status,
        "to_move": record.to_move,
        "events": events(batch, seat, record.finished),
        "view": view_for(record, seat) if with_view else None,
        "legal_moves": legal_moves(record, seat),
        "result": result_of(record),
    }


def minimal_move_result(record: GameRecord, batch: list[Entry], seat: int) -> dict:
    """`move_result` without the view, for `Prefer: return=minimal`."""
    return move_result(record, batch, seat, with_view=False)
