"""The `mcts` bot of both games: `bot(view, legal_moves, rng) -> move` with a budget."""

from __future__ import annotations

from domain.search.sampling import search


def _game(view: dict):
    if view["game"] == "keltis-card":
        from domain.search.card import GAME
    else:
        from domain.search.dice import GAME
    return GAME


def mcts_bot(budget):
    """A bot that searches each move within `budget` (domain.search.budget)."""

    def bot(view: dict, legal_moves: list, rng) -> dict:
        return search(_game(view), view, legal_moves, rng, budget)

    return bot
