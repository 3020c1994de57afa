"""The result of a finished game as the service presents it: the rules' scoring, with the
seats that forfeited ranked after the others and marked `forfeited: true` (the rules' own
scores are left as they are)."""

from __future__ import annotations

from gamelog.record import GameRecord


def result_of(record: GameRecord) -> dict | None:
    """None until the game is over; then the rules' result plus `ranking` (seats best
    first, forfeited seats last) and `forfeited` (their seats). A game that ended because one
    seat was left in play is won by that seat."""
    if not record.finished:
        return None
    scored = record.rules.result(record.state) if not record.ended_early else None
    if not record.forfeited and scored is not None:
        return scored
    result = dict(scored) if scored is not None else {"scores": None, "shared": False}
    scores = result.get("scores")
    in_play = record.in_play
    if scores is None:
        winners = in_play
    else:
        best = max((scores[seat] for seat in in_play), default=None)
        winners = [seat for seat in in_play if scores[seat] == best]
    result["winners"] = winners
    result["shared"] = len(winners) > 1
    result["forfeited"] = sorted(record.forfeited)
    result["ranking"] = _ranking(record, scores)
    if record.ended_early:
        result["ended"] = record.ended_early
    return result


def _ranking(record: GameRecord, scores: list | None) -> list[dict]:
    def order(seat: int):
        return (seat in record.forfeited, -(scores[seat] if scores is not None else 0), seat)

    return [
        {
            "seat": seat,
            "score": scores[seat] if scores is not None else None,
            "forfeited": seat in record.forfeited,
        }
        for seat in sorted(range(len(record.players)), key=order)
    ]
