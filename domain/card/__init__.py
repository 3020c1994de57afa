"""keltis-card: Keltis, the card game (docs/RULES.md game 1). `RULES` is its GameRules object.

Modules: `rules` (the GameRules object), `cards` (notation, C1-C4), `state` (immutable
state, turn `Step`, row tables), `commands` (the `CardCommand` type, parsing, legal moves),
`decide` (options, start and commands -> events), `evolve` (events -> state; the event
catalogue is in its docstring), `scoring` (K1-K4, the `Outcome`), `view` (R2), `bots`.
"""

from domain.card.rules import RULES, CardRules

__all__ = ["RULES", "CardRules"]
