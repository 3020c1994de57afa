"""`CardRules`: keltis-card behind the `domain.game.GameRules` interface."""

from __future__ import annotations

from operator import attrgetter

from domain.bots import BotTable
from domain.card import snapshot
from domain.card import view as views
from domain.card.bots import BOTS
from domain.card.commands import legal_moves
from domain.card.decide import MAX_PLAYERS, MIN_PLAYERS, decide, normalize_options, start
from domain.card.evolve import evolve, fold
from domain.card.scoring import outcome
from domain.card.state import FINISHED, CardState, phase_of
from domain.game import Outcome, OutcomeResult


class CardRules(OutcomeResult):
    """Keltis: the card game, 2-4 players (docs/RULES.md game 1)."""

    name = "keltis-card"
    version = "2"  # E4-E6: service rules that end every game
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    bots = BotTable("keltis-card", BOTS)

    # The hot functions are the module functions themselves (no wrapper call per step).
    normalize_options = staticmethod(normalize_options)
    start = staticmethod(start)
    fold = staticmethod(fold)
    evolve = staticmethod(evolve)
    decide = staticmethod(decide)
    legal_moves = staticmethod(legal_moves)
    # The seat to move is a field of the state: read in C, not through a Python call.
    to_move = staticmethod(attrgetter("to_move"))
    phase = staticmethod(phase_of)
    view = staticmethod(views.view)
    full_view = staticmethod(views.full_view)
    state_format = snapshot.FORMAT
    state_to_data = staticmethod(snapshot.to_data)
    state_from_data = staticmethod(snapshot.from_data)

    @staticmethod
    def outcome(state: CardState) -> Outcome | None:
        """Scores, winners and per-seat breakdown once finished (K1-K4)."""
        return outcome(state) if state.step == FINISHED else None


RULES = CardRules()
