"""Rating history, pure: an account's rating after each of its rated games, as the steps of
the ladder's fold (ladder.fold). The fold is deterministic, so the steps are too: the points
written while folding entry by entry equal those of a re-fold of the whole log bit for bit.

Only accounts keep a history (a built-in bot plays without end and has no page of its own):
`points` leaves built-in bots out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass

import orjson

from ladder.display import provisional, shown_rating
from ladder.entries import LadderEntry
from ladder.fold import Key, Rating, rate, rated_seats


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    """A participant's rating right after one rated game: ladder sequence number `seq`
    (1-based position in its game type's log), the game, when it finished (ms), its rank there,
    and the rating it left with (`games` rated games so far)."""

    seq: int
    game_id: str
    at: int
    rank: int
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def to_member(self) -> bytes:
        """The point as the history's sorted set keeps it (compact JSON of its fields in
        their order: equal points are one member, so writing a point twice keeps it once)."""
        return orjson.dumps(asdict(self))

    @classmethod
    def from_member(cls, raw: bytes | str) -> HistoryPoint:
        data = orjson.loads(raw)
        return cls(
            int(data["seq"]),
            data["game_id"],
            int(data["at"]),
            int(data["rank"]),
            data["mu"],
            data["sigma"],
            int(data["games"]),
        )

    def shown(self) -> dict:
        """The point as the API shows it: its fields, the ordinal before `games`, and the
        rating people see (ladder.display)."""
        fields = asdict(self)
        games = fields.pop("games")
        return {
            **fields,
            "ordinal": self.ordinal,
            "games": games,
            "rating": shown_rating(self.ordinal),
            "provisional": provisional(games),
        }


def keeps_history(participant: str) -> bool:
    """Whether a participant (ladder.entries.participant_id) keeps a rating history."""
    return participant.startswith("account:")


def points(entry: LadderEntry, seq: int, changed: Mapping[Key, Rating]) -> dict[Key, HistoryPoint]:
    """The history points one folded entry (`changed`: what `rate` gave it) adds."""
    found = {}
    for seat in rated_seats(entry):
        key = (entry.game, seat.participant)
        rating = changed.get(key)
        if rating is None or not keeps_history(seat.participant):
            continue
        found[key] = HistoryPoint(
            seq, entry.game_id, entry.finished_at, seat.rank, rating.mu, rating.sigma, rating.games
        )
    return found


def fold_steps(
    entries: Iterable[LadderEntry], first_seq: int, start: Mapping[Key, Rating] | None = None
):
    """The fold (ladder.fold.fold) with its steps: the ratings after `entries`, consecutive
    entries of one game type's log (the first of them is its sequence number `first_seq`),
    the keys they changed, and the history points, in log order, as (key, point) pairs."""
    ratings = dict(start or {})
    touched: set[Key] = set()
    steps: list[tuple[Key, HistoryPoint]] = []
    for offset, entry in enumerate(entries):
        changed = rate(entry, ratings)
        ratings.update(changed)
        touched.update(changed)
        steps.extend(points(entry, first_seq + offset, changed).items())
    return ratings, touched, steps
