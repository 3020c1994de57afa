"""The one rating people see: a whole number on a chess-like scale, from the ladder's
openskill ordinal (mu - 3 sigma), shown wherever a rating is (the ladder, profiles, rating
histories, arenas, the bots' levels).

A newcomer's ordinal is 0 (mu 25, sigma 25/3), so it starts at CENTRE; each point of
ordinal is SCALE rating points. A rating resting on fewer than PROVISIONAL_GAMES rated
games is provisional (shown with a "?"): its sigma is still wide and it moves fast.
"""

from __future__ import annotations

CENTRE = 1500
SCALE = 40
PROVISIONAL_GAMES = 10


def shown_rating(ordinal: float) -> int:
    """The rating shown for an openskill ordinal."""
    return round(CENTRE + SCALE * ordinal)


def provisional(games: int) -> bool:
    """Whether a rating resting on `games` rated games is still provisional."""
    return games < PROVISIONAL_GAMES


__all__ = ["CENTRE", "PROVISIONAL_GAMES", "SCALE", "provisional", "shown_rating"]
