"""The result of a finished game as the service presents it: the rules' scoring, with the
seats that forfeited ranked after the others and marked `forfeited: true` (the rules' own
scores are left as they are). Replays record and verify the same result."""

from __future__ import annotations

from collections.abc import Collection

from gamelog.events import ENDED_CANCELLED
from gamelog.record import GameRecord


def result_of(record: GameRecord) -> dict | None:
    """None until the game is over; then its presented result (`presented_result`)."""
    if not record.finished:
        return None
    scored = None if record.ended_early else record.rules.result(record.state)
    return presented_result(scored, len(record.players), record.forfeited, record.ended_early)


def presented_result(
    scored: dict | None, seats: int, forfeited: Collection[int], ended: str | None = None
) -> dict:
    """The rules' result (`scored`, None for a game that ended early) as presented: without
    a forfeit, as it is; else winners among the seats in play, `forfeited` (their seats),
    `ranking` ([{seat, score, forfeited}], forfeited seats last) and `ended` (why a game
    ended before its rules' end; it is won by the seat left in play, `scores` is null; a
    cancelled game has no winners)."""
    if not forfeited and scored is not None:
        return scored
    result = dict(scored) if scored is not None else {"scores": None, "shared": False}
    scores = result.get("scores")
    in_play = [seat for seat in range(seats) if seat not in forfeited]
    if ended == ENDED_CANCELLED:
        winners = []  # a cancelled game has no result
    elif scores is None:
        winners = in_play
    else:
        best = max((scores[seat] for seat in in_play), default=None)
        winners = [seat for seat in in_play if scores[seat] == best]

    def order(seat: int):
        return (seat in forfeited, -(scores[seat] if scores is not None else 0), seat)

    result["winners"] = winners
    result["shared"] = len(winners) > 1
    result["forfeited"] = sorted(forfeited)
    result["ranking"] = [
        {
            "seat": seat,
            "score": scores[seat] if scores is not None else None,
            "forfeited": seat in forfeited,
        }
        for seat in sorted(range(seats), key=order)
    ]
    if ended:
        result["ended"] = ended
    return result
