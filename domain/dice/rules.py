"""`DiceRules`: keltis-dice behind the `domain.game.GameRules` interface."""

from __future__ import annotations

from domain.bots import BotTable
from domain.dice import snapshot
from domain.dice import view as views
from domain.dice.bots import BOTS
from domain.dice.commands import legal_moves
from domain.dice.decide import MAX_PLAYERS, MIN_PLAYERS, decide, normalize_options, start
from domain.dice.evolve import evolve, fold
from domain.dice.scoring import outcome
from domain.dice.state import FINISHED, DiceState, phase_of, to_move
from domain.game import Outcome, OutcomeResult


class DiceRules(OutcomeResult):
    """Keltis: the dice game, 2-4 players (docs/RULES.md game 2)."""

    name = "keltis-dice"
    version = "2"  # F5, F6: service rules that end every game
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    bots = BotTable("keltis-dice", BOTS)

    # The hot functions are the module functions themselves (no wrapper call per step).
    normalize_options = staticmethod(normalize_options)
    start = staticmethod(start)
    fold = staticmethod(fold)
    evolve = staticmethod(evolve)
    decide = staticmethod(decide)
    legal_moves = staticmethod(legal_moves)
    to_move = staticmethod(to_move)
    phase = staticmethod(phase_of)
    view = staticmethod(views.view)
    full_view = staticmethod(views.full_view)
    state_format = snapshot.FORMAT
    state_to_data = staticmethod(snapshot.to_data)
    state_from_data = staticmethod(snapshot.from_data)

    @staticmethod
    def outcome(state: DiceState) -> Outcome | None:
        """Scores, winners and per-seat breakdown once finished (F2-F4)."""
        return outcome(state) if state.step == FINISHED else None


RULES = DiceRules()
