"""How much bot CPU a request will cost, estimated up front (seconds).

A game costs, for each bot seat, its moves in a game times the CPU one of its moves may
take: `mcts:<ms>` takes at most `<ms>` of CPU time per move (`mcts` about DEFAULT_MS on
average: its longer caps are for matches whose moves mostly stop early),
`mcts:i<N>` about ITERATION_S per iteration, another package's bot at most its budget
(DEFAULT_MS) before its fallback moves, the built-in heuristics microseconds (BUILTIN_MOVE_S
covers the service's own work around a move). A seat of a person, an account (its program
runs elsewhere) or an open seat costs nothing here.

Commands per game (all seats together) were measured with `domain.playout` over 60 games
of greedy and random bots and a few of `mcts:i20` per game and player count (rounded up
from the 90th percentile); a game of another size uses the largest.
"""

from __future__ import annotations

from collections.abc import Mapping

from domain import levels
from domain.bots import DEFAULT_MS, mcts_budget
from domain.search.budget import CpuBudget, MatchBudget
from tournaments.spec import is_account

COMMANDS_PER_GAME = {
    "keltis-card": {2: 170, 3: 200, 4: 240},
    "keltis-dice": {2: 80, 3: 130, 4: 140},
}
DEFAULT_COMMANDS = 250
BUILTIN_MOVE_S = 0.0001
ITERATION_S = 0.005  # an ISMCTS iteration plays 5-9 root moves: about 4-5 ms in keltis-card
EXTERNAL_MOVE_S = DEFAULT_MS / 1000


def commands_per_game(game: str, players: int) -> int:
    """The commands a game of `players` seats takes, all seats together (an estimate)."""
    known = COMMANDS_PER_GAME.get(game)
    if not known:
        return DEFAULT_COMMANDS
    return known.get(players, max(known.values()))


def move_seconds(bots, name: str | None) -> float:
    """CPU seconds one move of the bot `name` may take (0 for no bot, an unknown name)."""
    if not name or is_account(name):
        return 0.0
    name = levels.recipe(name, getattr(bots, "game", None))  # a level costs its recipe's cost
    if name in getattr(bots, "builtins", {}):
        return BUILTIN_MOVE_S
    if name.startswith("mcts"):
        try:
            budget = mcts_budget(name)
        except KeyError:
            return 0.0
        if isinstance(budget, CpuBudget | MatchBudget):
            return budget.ms / 1000
        return budget.iterations * ITERATION_S
    external = getattr(bots, "external", None)
    if external is not None and external(name):
        return EXTERNAL_MOVE_S
    return BUILTIN_MOVE_S if name in bots else 0.0


def game_seconds(rules, players: list[Mapping]) -> float:
    """The bot CPU of one game of `rules` with these seats (a create request's players)."""
    seats = max(1, len(players))
    per_seat = commands_per_game(rules.name, seats) / seats
    return sum(per_seat * move_seconds(rules.bots, p.get("bot")) for p in players)


def tournament_seconds(rules, entries, players_per_game: int, games: int) -> float:
    """The bot CPU of a tournament: every entry plays about as often (rotations, tables),
    so a game costs its commands times the mean cost of an entry's move."""
    if not entries:
        return 0.0
    mean = sum(move_seconds(rules.bots, entry) for entry in entries) / len(entries)
    return games * commands_per_game(rules.name, players_per_game) * mean
