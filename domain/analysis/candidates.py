"""The moves analysis values at a decision (besides the move played), read from the seat's
view alone: keltis-card, greedy's few best; keltis-dice, every move, and at a roll the tree
search's own roll choices (one function, domain.search.dice_tree.roll_moves, serves both)."""

from __future__ import annotations

from domain.card.bots import greedy_scores
from domain.dice.bots import greedy_bot
from domain.dice.commands import parse
from domain.search.dice_tree import roll_moves

CARD_CANDIDATES = 5  # greedy's best plays, draws or wishes


def card_candidates(view: dict, legal_moves: list) -> list:
    """keltis-card: greedy's CARD_CANDIDATES best moves, best first."""
    scores = greedy_scores(view, legal_moves)
    ranked = sorted(range(len(legal_moves)), key=lambda i: -scores[i])
    return [legal_moves[i] for i in ranked[:CARD_CANDIDATES]]


def dice_candidates(view: dict, legal_moves: list) -> list:
    """keltis-dice: every move and pass; at a roll, the tree search's own roll choices
    (domain.search.dice_tree.roll_moves: keep and one reroll per distinct set of rerolled
    faces, the greedy bot's choice first), in its order."""
    if view["stage"] != "roll":
        return legal_moves
    legal = {parse(move).code: move for move in legal_moves}
    first = parse(greedy_bot(view, legal_moves, None))
    return [legal[move.code] for move in roll_moves(view["dice"], first) if move.code in legal]
