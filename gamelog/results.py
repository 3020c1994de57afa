"""The result of a finished game as the service presents it: the rules' scoring, with the
seats that forfeited ranked after the others and marked `forfeited: true` (the rules' own
scores are left as they are). Replays record and verify the same result.

A rated game over before every seat made a move of its own (a ghost timed out, a dodge
resigned first) is aborted: no winners, `ended: "aborted"`. Nothing in the log says so; it
follows from the log (who moved, whether it was rated), read the same way by the game view,
the ladder (gamelog.outcome) and replays (replays.log)."""

from __future__ import annotations

from collections.abc import Collection

from gamelog.events import ENDED_ABORTED, ENDED_CANCELLED
from gamelog.record import GameRecord


def result_of(record: GameRecord) -> dict | None:
    """None until the game is over; then its presented result (`presented_result`)."""
    if not record.finished:
        return None
    scored = None if record.ended_early else record.rules.result(record.state)
    ended = ENDED_ABORTED if is_aborted(record) else record.ended_early
    return presented_result(scored, len(record.players), record.forfeited, ended)


def is_aborted(record: GameRecord) -> bool:
    """Whether a game that is over ended aborted (rated, or created to abort like one, not
    cancelled, a seat never moved)."""
    rated = record.rated or record.aborts
    return aborted(rated, record.cancelled, len(record.moved), len(record.players))


def aborted(rated: bool, cancelled: bool, moved: int, seats: int) -> bool:
    """The abort rule on a log's facts: a rated game, not cancelled, in which fewer than all
    `seats` made a move of their own (`moved` of them) has no result (as lichess aborts)."""
    return rated and not cancelled and moved < seats


def ending(result: dict | None) -> str | None:
    """Why a game ended, as its result names it: an early end or abort (`ended`: forfeit,
    cancelled, aborted) before the rules' end (`ended_by`: E6, F6); None when an older log
    names neither."""
    result = result or {}
    return result.get("ended") or result.get("ended_by")


def presented_result(
    scored: dict | None, seats: int, forfeited: Collection[int], ended: str | None = None
) -> dict:
    """The rules' result (`scored`, None for a game that ended early) as presented: without
    a forfeit or an abort, as it is; else winners among the seats in play, `forfeited`
    (their seats), `ranking` ([{seat, score, forfeited}], forfeited seats last) and `ended`
    (why a game ended before its rules' end; it is won by the seat left in play, `scores` is
    null; a cancelled or aborted game has no winners)."""
    if not forfeited and scored is not None and ended is None:
        return scored
    result = dict(scored) if scored is not None else {"scores": None, "shared": False}
    scores = result.get("scores")
    in_play = [seat for seat in range(seats) if seat not in forfeited]
    if ended in (ENDED_CANCELLED, ENDED_ABORTED):
        winners = []  # a cancelled or aborted game has no result
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
