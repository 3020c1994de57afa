"""Play one whole game in-process with bots, for any `GameRules` (card or dice).

Used by the simulator, the benchmarks, tournaments and property tests. Pure apart from the
`random.Random(bot_seed)` it creates and hands to the bots (the rules never see it): the
same rules, bots, seed, bot seed and options always give the same events.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from domain.chance import Chance
from domain.errors import DomainError
from domain.game import FINISHED, Bot, GameRules

DEFAULT_MAX_STEPS = 100_000


class PlayoutError(DomainError):
    """A playout could not finish: no legal move, or too many steps."""

    code = "playout_failed"


class Playout(NamedTuple):
    """A finished game: every event (opening events first), the final state, its result,
    and the number of commands played."""

    events: list[dict]
    state: Any
    result: dict | None
    steps: int


def resolve_bot(rules: GameRules, bot: str | Bot) -> Bot:
    """A bot policy by name (from `rules.bots`) or as given when already callable."""
    if callable(bot):
        return bot
    try:
        return rules.bots[bot]
    except KeyError:
        known = ", ".join(sorted(rules.bots))
        raise PlayoutError(f"{rules.name} has no bot {bot!r} (known: {known})") from None


def play_game(
    rules: GameRules,
    players_bots: Sequence[str | Bot],
    seed: bytes,
    bot_seed: int,
    options: Mapping | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
    on_step: Callable[[int, dict, list[dict]], None] | None = None,
) -> Playout:
    """Start a game for one bot per seat and let the bots play it to the end.

    `seed` (32 bytes) drives the game's `Chance`; `bot_seed` the bots' shared
    `random.Random`. `on_step(seat, command, events)` is called after every command.
    """
    policies = [resolve_bot(rules, bot) for bot in players_bots]
    chance = Chance(seed)
    options = rules.normalize_options(options or {})
    events = list(rules.start(len(policies), options, chance))
    state = rules.fold(events)
    rng = random.Random(bot_seed)
    evolve, decide, legal_moves = rules.evolve, rules.decide, rules.legal_moves
    steps = 0
    while rules.phase(state) != FINISHED:
        if steps >= max_steps:
            raise PlayoutError(f"no end after {max_steps} steps")
        seat = rules.to_move(state)
        moves = legal_moves(state, seat)
        if not moves:
            raise PlayoutError(f"seat {seat} is to move but has no legal move")
        command = policies[seat](rules.view(state, seat), moves, rng)
        new_events = decide(state, seat, command, chance)
        for event in new_events:
            state = evolve(state, event)
        events.extend(new_events)
        steps += 1
        if on_step is not None:
            on_step(seat, command, new_events)
    return Playout(events, state, rules.result(state), steps)
