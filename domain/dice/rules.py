"""`DiceRules`: keltis-dice behind the `domain.game.GameRules` interface."""

from __future__ import annotations

from collections.abc import Mapping

from domain.chance import Chance
from domain.dice import bots, events, scoring, views
from domain.dice import decide as commands
from domain.dice.board import BOARD_NAMES, load_board
from domain.dice.state import OVER, DiceState
from domain.errors import InvalidOptions
from domain.game import ACTIVE, FINISHED

DEFAULT_OPTIONS = {"board": "basic"}


class DiceRules:
    """Keltis: the dice game, 2-4 players (RULES.md game 2)."""

    name = "keltis-dice"
    min_players = 2
    max_players = 4

    def __init__(self):
        self.bots = {"random": bots.random_bot, "greedy": bots.greedy_bot}

    def normalize_options(self, options: Mapping) -> dict:
        """Options with defaults filled in: `board` is "basic" (default) or "advanced"."""
        if not isinstance(options, Mapping):
            raise InvalidOptions("options must be an object", "W2")
        unknown = sorted(set(options) - set(DEFAULT_OPTIONS))
        if unknown:
            raise InvalidOptions(f"unknown option(s) {unknown}; known: ['board']", "W2")
        normalized = {**DEFAULT_OPTIONS, **options}
        if normalized["board"] not in BOARD_NAMES:
            raise InvalidOptions(f"board must be one of {list(BOARD_NAMES)}", "W2")
        return normalized

    def start(self, players: int, options: Mapping, chance: Chance) -> list[dict]:
        """game_started, then the first player's roll (T1)."""
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            raise InvalidOptions("keltis-dice is for 2 to 4 players", "W4")
        options = self.normalize_options(options)
        load_board(options["board"])  # a malformed board file fails here, before any event
        return [
            {"type": "game_started", "players": players, "options": options},
            commands.roll_event(0, 0, chance),
        ]

    # The hot functions are the module functions themselves (no wrapper call per step).
    fold = staticmethod(events.fold)
    evolve = staticmethod(events.evolve)
    decide = staticmethod(commands.decide)
    legal_moves = staticmethod(commands.legal_moves)

    def to_move(self, state: DiceState) -> int | None:
        return None if state.stage == OVER else state.to_move

    def phase(self, state: DiceState) -> str:
        return FINISHED if state.stage == OVER else ACTIVE

    def view(self, state: DiceState, viewer: int | None) -> dict:
        return views.view(state, viewer)

    def full_view(self, state: DiceState) -> dict:
        return views.full_view(state)

    def result(self, state: DiceState) -> dict | None:
        return scoring.scores(state) if state.stage == OVER else None
