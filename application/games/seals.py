"""Sealed games: a game of a duplicate deal shows nothing until every game of its deal is
over (tournaments.schedule: one deal is played once per seat rotation, so one game's play
reveals the others' cards). The check reads the tournament's recorded outcomes."""

from __future__ import annotations

import redis

from store.tournaments.records import TournamentStore
from tournaments.errors import DealSealed


def deal_sealed(client: redis.Redis, tournament: dict | None) -> bool:
    """Whether a game placed so in its tournament (`game_created`'s `tournament`) is sealed."""
    if not tournament or not tournament.get("deal_games"):
        return False
    store = TournamentStore(client)
    return bool(store.missing_outcomes(tournament["id"], tournament["deal_games"]))


def require_unsealed(client: redis.Redis, tournament: dict | None) -> None:
    """DealSealed while the game's deal has a game not yet over."""
    if deal_sealed(client, tournament):
        raise DealSealed(
            "this game belongs to a duplicate deal whose games are not all over; it opens "
            "once they are"
        )
