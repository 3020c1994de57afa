"""The interface every game of the service implements (keltis-card, keltis-dice).

A game is a module-level object `RULES` in `domain/<game>/__init__.py` that satisfies
`GameRules`. The service and the tools only ever talk to a game through it.

Events are JSON-ready dicts with a `"type"`; hidden fields follow `domain.visibility`.
Commands (moves) are JSON-ready dicts with an `"action"`, exactly as clients POST them.

Both games are built alike (`domain/card/`, `domain/dice/`): `rules.py` (the `GameRules`
object), `state.py` (the state and its turn `Step`), `commands.py` (the game's `Command`
type, parsing, legal moves), `decide.py` (options, start, commands -> events), `evolve.py`
(events -> state), `scoring.py` (the `Outcome`), `view.py` (R2) and `bots.py`, beside the
game's components (`cards.py`, `board.py`).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from domain.chance import Chance

# A bot: a pure policy over what one seat may see. It gets the seat's view, the seat's
# legal moves and a random source handed in from outside, and returns one of the moves.
Bot = Callable[[dict, list, random.Random], dict]


def evolve_all(evolve: Callable[[Any, Mapping], Any], state: Any, events: Iterable[Mapping]):
    """The one generic fold: `state` after `events`, one `evolve` (a game's reducer) at a
    time. The state may be None before a game's opening event."""
    for event in events:
        state = evolve(state, event)
    return state


class Phase(StrEnum):
    """Where a whole game stands; the values are the strings views and the API show."""

    ACTIVE = "active"
    FINAL_ROUND = "final_round"  # keltis-card only (E3)
    FINISHED = "finished"


# The phases as module constants (imported by the store, replays and workers).
ACTIVE = Phase.ACTIVE
FINAL_ROUND = Phase.FINAL_ROUND
FINISHED = Phase.FINISHED


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game: every seat's total, the winners (all seats tied at
    the top: K4, F4), each seat's score item by item (JSON-ready, game-specific) and which
    end of the rules ended the game (`ended_by`: E6, F6; None for a state not yet over)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    breakdown: tuple[dict, ...]
    ended_by: str | None = None

    @classmethod
    def of(cls, breakdown: Sequence[dict], ended_by: str | None = None) -> Outcome:
        """The outcome of per-seat breakdowns, each with its `"total"`."""
        scores = tuple(part["total"] for part in breakdown)
        best = max(scores)
        winners = tuple(seat for seat, score in enumerate(scores) if score == best)
        return cls(scores, winners, tuple(breakdown), ended_by)

    @property
    def shared(self) -> bool:
        """Whether more than one seat wins."""
        return len(self.winners) > 1

    def to_dict(self) -> dict:
        """{"scores", "winners", "shared", "breakdown", "ended_by"}: JSON-ready, the caller's
        own copy."""
        return {
            "scores": list(self.scores),
            "winners": list(self.winners),
            "shared": self.shared,
            "breakdown": copy.deepcopy(list(self.breakdown)),
            "ended_by": self.ended_by,
        }


class OutcomeResult:
    """Mixin of a game's rules object: `result` is its `outcome` as a JSON-ready dict."""

    def state_to_data(self, state: Any) -> dict:
        """The state as plain data: dicts, lists or tuples, ints, strs, bools, None."""

    def state_from_data(self, data: dict) -> Any:
        """The state `state_to_data` gave (of the same `state_format`)."""

    def result(self, state: Any) -> dict | None:
        """None until finished; then `outcome(state).to_dict()`."""
        found = self.outcome(state)
        return None if found is None else found.to_dict()


class GameRules(Protocol):
    """What the service needs from a game. `State` is the game's own (opaque) type."""

    name: str
    min_players: int
    max_players: int
    bots: Mapping[str, Bot]
    # Optional (snapshots of long games; without them a game is always folded from its log):
    # state_format, bumped when the state's data shape changes, state_to_data and
    # state_from_data.
    state_format: int

    def normalize_options(self, options: Mapping) -> dict:
        """Options with defaults filled in; raises InvalidOptions."""

    def start(self, players: int, options: Mapping, chance: Chance) -> list[dict]:
        """The opening events of a game (shuffle, deal, first roll...)."""

    def fold(self, events: Iterable[dict]) -> Any:
        """The state after the opening events and all that follow them."""

    def evolve(self, state: Any, event: Mapping) -> Any:
        """The state after one more event. Pure: never mutates `state`."""

    def decide(self, state: Any, seat: int, command: Mapping, chance: Chance) -> list[dict]:
        """The events a legal command produces; raises a DomainError naming the rule."""

    def legal_moves(self, state: Any, seat: int) -> list[dict]:
        """Every command `decide` accepts from `seat` now (empty when not its turn)."""

    def to_move(self, state: Any) -> int | None:
        """The seat expected to act, or None when the game is over."""

    def phase(self, state: Any) -> Phase:
        """ACTIVE, FINAL_ROUND or FINISHED."""

    def view(self, state: Any, viewer: int | None) -> dict:
        """JSON-ready state as `viewer` (a seat, None for a spectator) may see it (R2)."""

    def full_view(self, state: Any) -> dict:
        """JSON-ready state with everything revealed (finished games, replays)."""

    def result(self, state: Any) -> dict | None:
        """None until finished; then {"scores": [...], "winners": [...], "shared": bool,
        "breakdown": [...], "ended_by": why} (`Outcome.to_dict()`; both games also offer
        `outcome(state)`)."""
