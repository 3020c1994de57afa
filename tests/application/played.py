"""Games the application tests play to a point: accounts seated by their consent, each
seat's first legal move, a resignation that ends the game at once."""

from __future__ import annotations

from application.games import clocks
from application.games.service import GameService
from tests.ladder.conftest import move_once

CARD = "keltis-card"
DICE = "keltis-dice"


def seated(games: GameService, players: list[dict], rated: bool = False, **options):
    """A new game seating `players` (each account by its consent); its record."""
    consenting = frozenset(p["account"].lower() for p in players if p.get("account"))
    record, _, _ = games.create(
        options.pop("game", CARD), players, {}, rated=rated, consenting=consenting, **options
    )
    return record


def resigned(games: GameService, players: list[dict], made: dict[str, str], loser: str, **kw):
    """A game of `players` (accounts' keys in `made`) where each moved once and `loser`
    then resigned: finished; its record."""
    record = seated(games, players, **kw)
    seats = {n: made[p["account"]] for n, p in enumerate(players) if p.get("account")}
    move_once(games, record.game_id, seats)
    clocks.resign(games, record.game_id, made[loser])
    return games.load(record.game_id)[0]
