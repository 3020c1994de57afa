"""The moves analysis values at a decision (besides the move played): a few best by the
greedy heuristic of each game, read from the seat's view alone."""

from __future__ import annotations

from domain.card.bots import greedy_scores
from domain.dice.board import COLORS
from domain.dice.bots import greedy_bot
from domain.dice.commands import KEEP, REROLL_CHOICES, REROLLS, parse

CARD_CANDIDATES = 5  # greedy's best plays, draws or wishes
_REROLL_OF = dict(zip(REROLL_CHOICES, REROLLS, strict=True))


def card_candidates(view: dict, legal_moves: list) -> list:
    """keltis-card: greedy's CARD_CANDIDATES best moves, best first."""
    scores = greedy_scores(view, legal_moves)
    ranked = sorted(range(len(legal_moves)), key=lambda i: -scores[i])
    return [legal_moves[i] for i in ranked[:CARD_CANDIDATES]]


def dice_candidates(view: dict, legal_moves: list) -> list:
    """keltis-dice: every move and pass; of the 32 roll choices: keep, the greedy bot's, and
    for each colour a reroll of the dice not showing it (keeping the stones or not)."""
    if view["stage"] != "roll":
        return legal_moves
    found = [greedy_bot(view, legal_moves, None), KEEP]
    dice = view["dice"]
    for color in COLORS:
        for keep_stones in (True, False):
            indexes = tuple(
                i
                for i, face in enumerate(dice)
                if face != color and not (keep_stones and face == "stone")
            )
            if indexes:
                found.append(_REROLL_OF[indexes])
    unique = list({parse(move).code: move for move in found}.values())
    legal = {parse(move).code: move for move in legal_moves}
    return [legal[parse(move).code] for move in unique if parse(move).code in legal]
