"""keltis-dice: Keltis, the dice game (docs/RULES.md game 2). `RULES` is its GameRules object.

Modules: `rules` (the GameRules object), `board` (the board as data, W1-W2, in `boards/`),
`state` (state, turn `Step`, dice and supply), `commands` (the `DiceCommand` type, parsing,
legal moves), `decide` (options, start and commands -> events), `evolve` (events -> state;
the event catalogue is in its docstring), `scoring` (F2-F4, the `Outcome`), `view` (R2),
`bots`.
"""

from domain.dice.rules import RULES, DiceRules

__all__ = ["RULES", "DiceRules"]
