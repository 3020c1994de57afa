"""Ratings as the fold of the ladder's log: one openskill Plackett-Luce rating per participant
and game type, updated entry by entry in log order.

The fold is deterministic: the same entries in the same order, from the same ratings, give
the same floats, so ratings updated incrementally (store/ladder/records.py) equal a re-fold of the
whole log bit for bit. A participant holding several seats of one game is rated once, at its
best-placed seat; a game with fewer than two participants changes no rating.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cache

from ladder.entries import LadderEntry, LadderSeat
from ladder.pairs import blend, pair_weight

Key = tuple[str, str]  # (game type, participant id)


@dataclass(frozen=True, slots=True)
class Rating:
    """A participant's rating in one game type, after `games` rated games."""

    name: str
    bot: bool
    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative estimate the ladder is sorted by: mu - 3 sigma."""
        return self.mu - 3 * self.sigma

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "bot": self.bot,
            "mu": self.mu,
            "sigma": self.sigma,
            "games": self.games,
        }

    @classmethod
    def from_dict(cls, data: dict) -> Rating:
        return cls(data["name"], bool(data["bot"]), data["mu"], data["sigma"], int(data["games"]))


@cache
def model():
    """The openskill model of the ladder (its defaults: mu 25, sigma 25/3)."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


def initial(seat: LadderSeat) -> Rating:
    """The rating of a participant's first game."""
    fresh = model().rating()
    return Rating(seat.name, seat.bot, fresh.mu, fresh.sigma)


def rated_seats(entry: LadderEntry) -> list[LadderSeat]:
    """One seat per participant (its best-placed one, the first of equals), in seat order."""
    best: dict[str, LadderSeat] = {}
    for seat in entry.seats:
        held = best.get(seat.participant)
        if held is None or seat.rank < held.rank:
            best[seat.participant] = seat
    return [seat for seat in entry.seats if best[seat.participant] is seat]


def rate(entry: LadderEntry, current: Mapping[Key, Rating]) -> dict[Key, Rating]:
    """The new ratings of the entry's participants (keys missing from `current` start
    fresh); empty when fewer than two participants played or the entry is a pair's game
    past its daily limit. A pair's k-th game moves mu and sigma 1/k of openskill's update
    (ladder.pairs.pair_weight)."""
    seats = rated_seats(entry)
    weight = pair_weight(entry.pair_game)
    if len(seats) < 2 or weight == 0.0:
        return {}
    keys = [(entry.game, seat.participant) for seat in seats]
    before = [current.get(key) or initial(seat) for key, seat in zip(keys, seats, strict=True)]
    teams = [[model().rating(mu=r.mu, sigma=r.sigma)] for r in before]
    rated = model().rate(teams, ranks=[seat.rank for seat in seats])
    return {
        key: replace(
            old,
            name=seat.name,
            mu=blend(old.mu, team[0].mu, weight),
            sigma=blend(old.sigma, team[0].sigma, weight),
            games=old.games + 1,
        )
        for key, seat, old, team in zip(keys, seats, before, rated, strict=True)
    }


def fold(entries: Iterable[LadderEntry], start: Mapping[Key, Rating] | None = None):
    """The ratings after `entries` in order, from `start` (default: none yet); returns all
    ratings and the keys the entries changed."""
    ratings = dict(start or {})
    touched: set[Key] = set()
    for entry in entries:
        changed = rate(entry, ratings)
        ratings.update(changed)
        touched.update(changed)
    return ratings, touched
