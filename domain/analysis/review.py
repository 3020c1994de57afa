"""The analysis of a finished game: each seat's decisions, judged from its own view then.

Walks the game's turns (the opening events, then each command's batch of events); before
each command the deciding seat's view is rebuilt with the rules' own view code (R2:
`rules.view(state, seat)`, exactly what the seat saw), and the evaluator (`EVALUATE`, by
default `values.move_values`) values the search's candidate moves and the move played from
that view alone, seeded from the game id and version (the same analysis every time). A
decision's loss is the best value minus the played move's value (never below 0), in
expected points of score margin; a seat's summary is its mean loss and its three largest.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from domain.analysis.values import move_values
from domain.game import GameRules, evolve_all

# The evaluator: (view, moves, rng, budget) -> [(move, expected points)]. The one line to
# change to value moves with another search's root statistics.
EVALUATE: Callable = move_values
MARKS = ((6.0, "blunder"), (3.0, "mistake"), (1.0, "inaccuracy"))  # points lost, at least
LARGEST = 3


@dataclass(frozen=True)
class Turn:
    """One command of the log: its first version, the seat that sent it, the command, and
    the events it produced."""

    version: int
    seat: int
    command: dict
    events: Sequence[dict]


@dataclass(frozen=True)
class Decision:
    """A seat's position before one of its commands: its view and legal moves only."""

    step: int
    version: int
    seat: int
    view: dict
    legal: list
    played: dict


def decisions(rules: GameRules, opening: Iterable[dict], turns: Iterable[Turn]):
    """Every decision of the game, in order (the state is folded from the log; the
    decision carries only the seat's view of it)."""
    state = rules.fold(list(opening))
    for step, turn in enumerate(turns, start=1):
        yield Decision(
            step,
            turn.version - 1,
            turn.seat,
            rules.view(state, turn.seat),
            rules.legal_moves(state, turn.seat),
            turn.command,
        )
        state = evolve_all(rules.evolve, state, turn.events)


def seed_of(game_id: str, version: int) -> int:
    """The analysis's random seed of one decision (game id and version: replayable)."""
    digest = hashlib.sha256(f"keltis-analysis:{game_id}:{version}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _key(move: dict) -> str:
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


def mark_of(loss: float) -> str | None:
    """The word for a loss of `loss` expected points (None: a good move)."""
    for least, word in MARKS:
        if loss >= least:
            return word
    return None


def judge(decision: Decision, game_id: str, budget, candidates: Callable) -> dict | None:
    """One decision's line (None when the seat had no choice)."""
    legal = decision.legal
    if len(legal) <= 1:
        return None
    moves = list(candidates(decision.view, legal))
    keys = [_key(move) for move in moves]
    played = _key(decision.played)
    if played not in keys:
        same = [move for move in legal if _key(move) == played]
        moves.append(same[0] if same else decision.played)
        keys.append(played)
    rng = random.Random(seed_of(game_id, decision.version))
    values = EVALUATE(decision.view, moves, rng, budget)
    best_move, best = max(values, key=lambda pair: pair[1])
    mine = values[keys.index(played)][1]
    loss = max(0.0, best - mine)
    return {
        "step": decision.step,
        "version": decision.version,
        "seat": decision.seat,
        "played": decision.played,
        "played_value": round(mine, 3),
        "best": best_move,
        "best_value": round(best, 3),
        "loss": round(loss, 3),
        "mark": mark_of(loss),
        "moves_valued": len(values),
    }


def summary(lines: list[dict], seats: int) -> list[dict]:
    """Per seat: its decisions, mean and total loss, marks, and its largest losses."""
    result = []
    for seat in range(seats):
        mine = [line for line in lines if line["seat"] == seat]
        total = sum(line["loss"] for line in mine)
        largest = sorted(mine, key=lambda line: (-line["loss"], line["step"]))[:LARGEST]
        result.append(
            {
                "seat": seat,
                "decisions": len(mine),
                "average_loss": round(total / len(mine), 3) if mine else 0.0,
                "total_loss": round(total, 3),
                "marks": {word: sum(1 for x in mine if x["mark"] == word) for _, word in MARKS},
                "largest": [
                    {k: line[k] for k in ("step", "version", "loss", "mark", "played", "best")}
                    for line in largest
                    if line["loss"] > 0
                ],
            }
        )
    return result


def analyse(
    rules: GameRules,
    game_id: str,
    opening: Iterable[dict],
    turns: Iterable[Turn],
    seats: int,
    budget,
    candidates: Callable,
) -> dict:
    """The analysis of a finished game: {"decisions": [...], "seats": [...]}."""
    lines = []
    for decision in decisions(rules, opening, turns):
        line = judge(decision, game_id, budget, candidates)
        if line is not None:
            lines.append(line)
    return {"decisions": lines, "seats": summary(lines, seats)}


__all__ = ["EVALUATE", "Decision", "Turn", "analyse", "decisions", "judge", "seed_of"]
