"""keltis-card: Keltis, the card game (RULES.md game 1), as a `domain.game.GameRules`.

Modules: `cards` (notation, C1-C4), `state` (immutable state, row tables), `moves`
(commands and legal moves), `decide` (start and commands -> events), `evolve` (events ->
state; the event catalogue is in its docstring), `scoring` (K1-K4), `view` (R2), `bots`.
"""

from __future__ import annotations

from domain.card.bots import BOTS
from domain.card.decide import MAX_PLAYERS, MIN_PLAYERS, decide, normalize_options, start
from domain.card.evolve import evolve, fold
from domain.card.moves import legal_options
from domain.card.scoring import score_table
from domain.card.state import OVER
from domain.card.view import full_view, phase_name, view


class CardRules:
    """The GameRules object of keltis-card."""

    name = "keltis-card"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    bots = BOTS

    normalize_options = staticmethod(normalize_options)
    start = staticmethod(start)
    fold = staticmethod(fold)
    evolve = staticmethod(evolve)
    decide = staticmethod(decide)
    view = staticmethod(view)
    full_view = staticmethod(full_view)
    phase = staticmethod(phase_name)

    @staticmethod
    def legal_moves(state, seat: int) -> list[dict]:
        """Every command `decide` accepts from `seat` now (shared read-only dicts)."""
        if seat != state.to_move:
            return []
        return list(legal_options(state)[1])

    @staticmethod
    def to_move(state) -> int | None:
        """The seat expected to act, or None when the game is over."""
        return state.to_move

    @staticmethod
    def result(state) -> dict | None:
        """Scores, winners, shared flag and per-seat breakdown once finished (K1-K4)."""
        return score_table(state) if state.sub == OVER else None


RULES = CardRules()

__all__ = ["RULES", "CardRules"]
