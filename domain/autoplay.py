"""The one bot engine: a bot's move from its seat's view, its random source, and play until
a person is to move (or the game ends).

Used by `domain.playout` (simulations), the service's bot turns and tournament games. Pure:
the random sources are built from the game's seed and position, never from a clock.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

from domain.chance import Chance
from domain.errors import DomainError
from domain.game import FINISHED, Bot, GameRules, evolve_all

DEFAULT_MAX_TURNS = 100_000


class BotHasNoMove(DomainError):
    """A bot seat is to move but the rules list no legal move for it."""

    code = "bot_has_no_move"


class NoEnd(DomainError):
    """The bots did not finish the game within the allowed number of turns."""

    code = "playout_failed"


class BotChoice(NamedTuple):
    """A bot's move; `fallback` when the bot proposed something illegal and the first legal
    move was played in its place."""

    move: dict
    fallback: bool = False


class Turn(NamedTuple):
    """One command played by a bot: its seat, the command, its events, the state after them,
    the version before it, and whether the command was a fallback."""

    seat: int
    command: dict
    events: list[dict]
    state: Any
    version: int
    fallback: bool


def bot_rng(seed_hex: str, game_id: str, version: int) -> random.Random:
    """The bot's random source at one version of a stored game: deterministic, and unknown
    to the other players (it derives from the secret seed)."""
    material = f"bot:{seed_hex}:{game_id}:{version}".encode()
    return random.Random(int.from_bytes(hashlib.sha256(material).digest(), "big"))


def choose_move(rules: GameRules, state, seat: int, bot: Bot, rng: random.Random) -> BotChoice:
    """The move of `bot` for `seat`, over the seat's own view and legal moves only."""
    moves = rules.legal_moves(state, seat)
    if not moves:
        raise BotHasNoMove(f"seat {seat} is to move but has no legal move")
    move = bot(rules.view(state, seat), moves, rng)
    if move in moves:  # identity first, in C: the bots hand back one of `moves`
        return BotChoice(move)
    return BotChoice(moves[0], fallback=True)


def play_bots(
    rules: GameRules,
    state,
    bots: Sequence[Bot | None],
    chance: Chance,
    rng_at: Callable[[int], random.Random],
    version: int = 0,
    max_turns: int = DEFAULT_MAX_TURNS,
) -> Iterator[Turn]:
    """Play the bots' turns from `state` (at `version`) until a seat without a bot (None in
    `bots`) is to move, the game is over, or `max_turns` were played; yields every turn.

    `rng_at(version)` is the bots' random source for the turn at that version.
    """
    evolve, decide = rules.evolve, rules.decide
    for _ in range(max_turns):
        if rules.phase(state) == FINISHED:
            return
        seat = rules.to_move(state)
        bot = bots[seat]
        if bot is None:
            return
        choice = choose_move(rules, state, seat, bot, rng_at(version))
        events = decide(state, seat, choice.move, chance)  # a legal move as listed: no parse
        command = dict(choice.move)
        state = evolve_all(evolve, state, events)
        yield Turn(seat, command, events, state, version, choice.fallback)
        version += len(events)


def play_to_end(
    rules: GameRules,
    state,
    bots: Sequence[Bot],
    chance: Chance,
    rng_at: Callable[[int], random.Random],
    version: int = 0,
    max_turns: int = DEFAULT_MAX_TURNS,
) -> Iterator[Turn]:
    """`play_bots` for a game of bots only; NoEnd when it is not over after `max_turns`."""
    for turn in play_bots(rules, state, bots, chance, rng_at, version, max_turns):
        state = turn.state
        yield turn
    if rules.phase(state) != FINISHED:
        raise NoEnd(f"no end after {max_turns} turns")
