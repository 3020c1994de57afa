"""The outcome of a game that is over, seat by seat: the one reading of a game's end that the
ladder (application.games.settle), tournament standings (application.tournaments.service) and
exports
share, so a game counts the same way everywhere.

Every way a game ends gives one:
- the rules' end: the rules' scores, ranked (`domain.ranking`), winners as the result says;
- forfeits (timeouts, a resignation, a stalled bot's timeouts): a forfeited seat ranks last;
  a game ended early (one seat left in play) has no scores, its seat in play wins;
- cancelled (its tournament, or the game alone) or expired waiting for seats: `void`, no
  result counts (unrated, in no standings, not exported as a finished game);
- a rated game that ended before every seat made a move of its own (a seat timed out,
  forfeited or resigned before its first move): `void` `aborted`, as lichess aborts it, so
  a ghost or a dodge is no one's win, on the ladder and in the standings alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.ranking import ranks
from gamelog.events import ENDED_ABORTED
from gamelog.record import GameRecord, Status
from gamelog.results import is_aborted, result_of

VOID_CANCELLED = "cancelled"
VOID_EXPIRED = "expired"
VOID_ABORTED = ENDED_ABORTED


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """One seat's end: score (None for a game ended early), rank (1 is best), whether it
    won, whether it forfeited."""

    score: float | None
    rank: int
    winner: bool
    forfeited: bool


@dataclass(frozen=True, slots=True)
class Outcome:
    """A game's end: its seats, why it ended early (`forfeit`, `cancelled`, or None), and
    `void` (`cancelled`, `expired`, `aborted`) when no result counts."""

    seats: tuple[SeatOutcome, ...]
    ended: str | None = None
    void: str | None = None

    @property
    def scores(self) -> tuple[float | None, ...]:
        return tuple(seat.score for seat in self.seats)

    @property
    def ranks(self) -> tuple[int, ...]:
        return tuple(seat.rank for seat in self.seats)

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(n for n, seat in enumerate(self.seats) if seat.winner)

    @property
    def forfeited(self) -> tuple[int, ...]:
        return tuple(n for n, seat in enumerate(self.seats) if seat.forfeited)


def is_over(record: GameRecord) -> bool:
    """Whether the game takes no more moves: finished (any way) or expired."""
    return record.finished or record.status == Status.EXPIRED


def outcome_of(record: GameRecord) -> Outcome | None:
    """The outcome of a game that is over; None while it is not."""
    if not is_over(record):
        return None
    seats = len(record.players)
    forfeited = [seat in record.forfeited for seat in range(seats)]
    void = _void(record)
    if void is not None:
        placed = ranks([None] * seats, forfeited)
        return Outcome(
            tuple(SeatOutcome(None, placed[s], False, forfeited[s]) for s in range(seats)),
            record.ended_early,
            void,
        )
    result = result_of(record)
    scores = result.get("scores") or [None] * seats
    winners = set(result.get("winners") or ())
    placed = ranks(scores, forfeited)
    return Outcome(
        tuple(SeatOutcome(scores[s], placed[s], s in winners, forfeited[s]) for s in range(seats)),
        record.ended_early,
    )


def _void(record: GameRecord) -> str | None:
    """Why no result of a game that is over counts (None: it counts)."""
    if record.cancelled:
        return VOID_CANCELLED
    if record.status == Status.EXPIRED:
        return VOID_EXPIRED
    if is_aborted(record):
        return VOID_ABORTED
    return None
