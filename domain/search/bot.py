"""The `mcts` bot of both games: `bot(view, legal_moves, rng) -> move` with a budget."""

from __future__ import annotations

from domain.search.ismcts import search


def tree_game(view: dict):
    """The `domain.search.ismcts.Game` of the view's game."""
    if view["game"] == "keltis-card":
        from domain.search.card_tree import GAME
    else:
        from domain.search.dice_tree import GAME
    return GAME


def mcts_bot(budget):
    """A bot that searches each move within `budget` (domain.search.budget)."""

    for_view = getattr(budget, "for_view", None)  # a MatchBudget: the view's match decides

    def bot(view: dict, legal_moves: list, rng) -> dict:
        chosen = for_view(view) if for_view else budget
        return search(tree_game(view), view, legal_moves, rng, chosen)

    return bot
