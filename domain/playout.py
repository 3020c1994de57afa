"""Play one whole game in-process with bots, for any `GameRules` (card or dice).

Used by the simulator, the benchmarks, tournaments and property tests. Pure apart from the
`random.Random(bot_seed)` it creates and hands to the bots (the rules never see it): the
same rules, bots, seed, bot seed and options always give the same events.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from domain.autoplay import DEFAULT_MAX_TURNS, NoEnd, play_to_end
from domain.chance import Chance
from domain.game import Bot, GameRules

DEFAULT_MAX_STEPS = DEFAULT_MAX_TURNS
PlayoutError = NoEnd  # a playout could not finish: no legal move, or too many steps


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
    steps = 0
    for turn in play_to_end(rules, state, policies, chance, lambda _: rng, max_turns=max_steps):
        state = turn.state
        events.extend(turn.events)
        steps += 1
        if on_step is not None:
            on_step(turn.seat, turn.command, turn.events)
    return Playout(events, state, rules.result(state), steps)
