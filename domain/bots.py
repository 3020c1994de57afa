"""Bot names of a game, resolved in one place: `rules.bots` is a `BotTable`.

- the game's built-in bots (`random`, `greedy`);
- `mcts` (the search bot at the default budget: DEFAULT_MS of CPU time per move, or its
  match's longer cap in DEFAULT_CAPS_MS, where most moves settle early: about DEFAULT_MS
  a move on average), `mcts:<ms>` (at most MIN_MS-MAX_MS ms of CPU time per move) and
  `mcts:i<N>` (at most N iterations: the same move for the same rng on any machine); a
  search stops earlier once its move is settled (domain.search.ismcts);
- `level:1` to `level:5` (domain.levels): another name for a fixed recipe of the above;
- bots of other packages (entry-point group `keltis.bots`, `domain.plugins`), each move
  held to the same CPU budget: over it, the fallback bot's move is played instead.

Iterating a table lists the names to show (`mcts` once, not every budget); `name in table`
and `table[name]` accept every name above, so each place that checks or resolves a bot name
(API, tournaments, clocks, simulate) takes them alike.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping

from domain import levels, plugins
from domain.search.bot import mcts_bot
from domain.search.budget import CpuBudget, IterationBudget, MatchBudget

MCTS = "mcts"
DEFAULT_MS = 250
# Measured (README, "Bots"): in 2-player keltis-card the race settles most moves early, so
# a 500 ms cap spent 228 ms a move on average over 200 games (p50 196 ms, p99 501 ms).
DEFAULT_CAPS_MS = {("keltis-card", 2): 500}
MIN_MS, MAX_MS = 10, 5000
MAX_ITERATIONS = 100_000
DEFAULT_FALLBACK = "greedy"
_MCTS_NAME = re.compile(r"mcts(?::(i?)([0-9]{1,6}))?")


def mcts_budget(name: str):
    """The budget a `mcts...` name asks for; KeyError for any other name or a bad budget."""
    found = _MCTS_NAME.fullmatch(name) if isinstance(name, str) else None
    if found is None:
        raise KeyError(name)
    fixed, number = found.groups()
    if number is None:
        return MatchBudget(DEFAULT_MS, DEFAULT_CAPS_MS)
    if fixed:
        if not 1 <= int(number) <= MAX_ITERATIONS:
            raise KeyError(name)
        return IterationBudget(int(number))
    if not MIN_MS <= int(number) <= MAX_MS:
        raise KeyError(name)
    return CpuBudget(int(number))


def budgeted(bot: Callable, fallback: Callable, ms: float = DEFAULT_MS, clock=None) -> Callable:
    """`bot` held to `ms` of CPU time per move: over it, `fallback` moves instead (with the
    random source as it was before `bot` drew from it)."""
    clock = clock or CpuBudget(ms).clock

    def run(view: dict, legal_moves: list, rng):
        saved = rng.getstate()
        begin = clock()
        move = bot(view, list(legal_moves), rng)
        if (clock() - begin) * 1000.0 > ms:
            rng.setstate(saved)
            return fallback(view, legal_moves, rng)
        return move

    run.external = True
    return run


class BotTable(Mapping):
    """Every bot of one game, by name (see the module docstring)."""

    def __init__(self, game: str, builtins: Mapping[str, Callable]):
        self.game = game
        self.builtins = dict(builtins)
        self._made: dict[str, Callable] = {}

    def _external(self) -> dict[str, Callable]:
        found = plugins.external_bots(self.game)
        return {
            n: b
            for n, b in found.items()
            if n not in self.builtins and n != MCTS and levels.level_of(n) is None
        }

    def __getitem__(self, name: str) -> Callable:
        if not isinstance(name, str):
            raise KeyError(name)
        bot = self.builtins.get(name) or self._made.get(name)
        if bot is not None:
            return bot
        if levels.level_of(name) is not None:
            return self[levels.recipe(name, self.game)]
        if name.startswith(MCTS):
            bot = mcts_bot(mcts_budget(name))
        else:
            bot = budgeted(self._external()[name], self.builtins[DEFAULT_FALLBACK])
        if len(self._made) < 256:
            self._made[name] = bot
        return bot

    def __contains__(self, name: object) -> bool:
        try:
            self[name]
        except KeyError:
            return False
        return True

    def __iter__(self) -> Iterator[str]:
        return iter([*self.builtins, MCTS, *levels.level_names(), *self._external()])

    def __len__(self) -> int:
        return len(list(iter(self)))

    def external(self, name: str) -> bool:
        """Whether `name` is a bot of another package."""
        name = levels.recipe(name, self.game)
        return name not in self.builtins and not name.startswith(MCTS) and name in self

    def reproducible(self, name: str) -> bool:
        """Whether `name` makes the same move from the same position and rng on any machine
        (built-in bots, `mcts:i<N>`): only such a bot may be a clock's fallback, whose moves
        a replay re-derives."""
        name = levels.recipe(name, self.game)
        if name in self.builtins:
            return True
        return (
            name.startswith(MCTS)
            and name in self
            and isinstance(mcts_budget(name), IterationBudget)
        )

    def searching(self, name: str) -> bool:
        """Whether a move of `name` may take a whole CPU budget (search or another
        package's bot), rather than a few microseconds (the built-in heuristics)."""
        name = levels.recipe(name, self.game)
        return name not in self.builtins and name in self

    def with_fallback(self, name: str, fallback: str) -> Callable:
        """The bot `name`; another package's bot falls back on the bot `fallback` (a game's
        clock fallback) when a move goes over its CPU budget."""
        if not self.external(name) or fallback == DEFAULT_FALLBACK or fallback not in self:
            return self[name]
        return budgeted(self._external()[name], self[fallback])


def fallback_problem(bots: Mapping, name: object) -> str | None:
    """Why `name` cannot be a clock's fallback bot (None: it can)."""
    if not isinstance(name, str) or name not in bots:
        return f"unknown fallback bot {name!r}"
    reproducible = getattr(bots, "reproducible", None)
    if reproducible is not None and not reproducible(name):
        return (
            f"fallback bot {name!r} is not reproducible (replays re-derive a fallback move): "
            "use a built-in bot or mcts:i<N>"
        )
    return None


def logged_fallback(bots: Mapping, name: str) -> str:
    """The name a clock's fallback is logged under: a level's recipe in the bots' game, so
    that a replay, which re-derives the fallback's moves by that name, plays the same bot
    whatever the levels' recipes become later."""
    return levels.recipe(name, getattr(bots, "game", None))


__all__ = [
    "DEFAULT_MS",
    "MAX_MS",
    "MCTS",
    "MIN_MS",
    "BotTable",
    "budgeted",
    "fallback_problem",
    "logged_fallback",
    "mcts_budget",
]
