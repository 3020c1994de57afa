"""The states of a replayed game, one step per command, with everything revealed.

Step 0 is the table after the opening (shuffle, deal, first roll); step k the table after
the k-th command. Each step carries the rules' `full_view` and every seat's score so far.
"""

from __future__ import annotations

from domain.game import GameRules, evolve_all
from replays.build import rules_of
from replays.canonical import json_ready
from replays.errors import MalformedLog
from replays.log import Batch, parse_log
from replays.shown import quote


def steps(replay: dict, rules: GameRules | None = None) -> list[dict]:
    """[{"step", "n", "at", "by", "cmd", "events", "view", "scores"}, ...] for a replay.
    A log the rules cannot fold (an unverified replay) raises MalformedLog naming the step."""
    log = parse_log(replay["entries"])
    rules = rules or rules_of(log.game)
    if log.opening is None:
        raise MalformedLog("the log has no opening events")
    batch = log.opening
    try:
        state = rules.fold(batch.events)
        result = [_step(0, batch, rules, state)]
        for index, batch in enumerate(log.turns, start=1):
            state = evolve_all(rules.evolve, state, batch.events)
            result.append(_step(index, batch, rules, state))
    except Exception as error:  # the rules on a log they never produced: any error at all
        raise MalformedLog(
            f"the rules cannot replay the batch at n={batch.n}: {quote(error)}", batch.n
        ) from None
    return result


def _step(index: int, batch: Batch, rules: GameRules, state) -> dict:
    view = json_ready(rules.full_view(state))
    return {
        "step": index,
        "n": batch.n,
        "at": batch.entries[0]["at"],
        "by": batch.by,
        "cmd": batch.cmd,
        "events": batch.events,
        "view": view,
        "scores": scores_of(view, rules.result(state)),
    }


def scores_of(view: dict, result: dict | None) -> list | None:
    """Every seat's score: the final result's, else the `score` each seat of the full view
    shows (`seats` or `players` lists), else None."""
    if result and isinstance(result.get("scores"), list):
        return list(result["scores"])
    for key in ("seats", "players"):
        seats = view.get(key)
        if (
            isinstance(seats, list)
            and seats
            and all(
                isinstance(seat, dict) and isinstance(seat.get("score"), int | float)
                for seat in seats
            )
        ):
            return [seat["score"] for seat in seats]
    return None
