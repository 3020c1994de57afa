"""keltis-dice: Keltis, the dice game (RULES.md game 2). `RULES` is its GameRules object."""

from domain.dice.rules import DiceRules

RULES = DiceRules()

__all__ = ["RULES"]
