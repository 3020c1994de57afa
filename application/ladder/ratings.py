"""Reading the ladder's ratings: a game type's listing by ordinal, and an account's ratings
(its public profile shows them)."""

from __future__ import annotations

import redis

from application.common.errors import UnknownGame
from domain.registry import game_names
from ladder.display import provisional, shown_rating
from ladder.fold import Rating
from store.accounts.records import AccountStore, fold
from store.core.cursor import Position
from store.ladder.records import LadderStore


def shown(rating: Rating, bot_account: bool = False) -> dict:
    """A rating as the API shows it: `account` (an account's rating, else a built-in bot's)
    and `bot` as the profile says it (a built-in bot, or a bot account: `bot_account`)."""
    return {
        "name": rating.name,
        "account": not rating.bot,
        "bot": rating.bot or bot_account,
        "mu": rating.mu,
        "sigma": rating.sigma,
        "ordinal": rating.ordinal,
        "games": rating.games,
        "rating": shown_rating(rating.ordinal),
        "provisional": provisional(rating.games),
    }


def ratings_page(
    client: redis.Redis, game: str, after: Position | None, limit: int
) -> tuple[list[dict], str | None]:
    """One page of a game type's ratings, highest ordinal first, and the next cursor."""
    if game not in game_names():
        raise UnknownGame(f"unknown game {game!r}")
    found, position = LadderStore(client).board(game, after, limit)
    accounts = [rating.name for rating in found if not rating.bot]
    bots = AccountStore(client).bot_flags(accounts)
    rows = [shown(rating, bots.get(fold(rating.name), False)) for rating in found]
    return rows, position.encode() if position else None


def account_ratings(client: redis.Redis, name: str) -> dict[str, dict]:
    """An account's rating per game type it played rated games of."""
    found = LadderStore(client).account_ratings(name, sorted(game_names()))
    return {
        game: {
            key: value
            for key, value in shown(rating).items()
            if key not in ("name", "bot", "account")
        }
        for game, rating in found.items()
    }
