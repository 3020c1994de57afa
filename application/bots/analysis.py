"""Game analysis on request: a finished game's decisions judged from
each seat's own view at the time (domain.analysis), run once on a worker and kept.

A request claims the game's analysis record (one per game: a second request gets the same
record), is charged its estimated CPU to the requester's bot-work budget
(application.budget.service,
by the API), and enqueues one job (`application.operations.jobs.analyse_game`) in the bulk bot lane.
The record's status: `queued`, `running`, `done` (with the result) or `failed` (a new
request tries again). The analysis is deterministic: seeded from the game id and each
decision's version, at a fixed number of iterations.
"""

from __future__ import annotations

import time

import orjson

import settings
from domain.analysis.review import Turn, analyse
from domain.analysis.values import candidates
from domain.search.budget import IterationBudget
from gamelog.results import ending
from replays.build import rules_of
from replays.log import parse_log
from store import keys
from store.bots import analyses

ITERATIONS = 12  # determinizations per decision, each move rolled out to the end in each
ITERATIONS_ENV = "KELTIS_ANALYSIS_ITERATIONS"  # the operator's choice, 1 to 200
MOVE_S = 0.2  # estimated CPU seconds of analysis per command (2p card: about 0.15 at ITERATIONS)
QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
NONE = "none"  # not requested yet
LOST_AFTER_S = 30  # a queued or running analysis whose job is gone this long after its claim


def not_requested(game_id: str) -> dict:
    """The record of a game no one asked to analyse yet (POST it to start one)."""
    return {"game_id": game_id, "status": NONE, "job_id": None}


def chosen_iterations() -> int:
    """Determinizations per decision: KELTIS_ANALYSIS_ITERATIONS (bounded), else ITERATIONS."""
    return settings.current().analysis_iterations


def estimate_s(replay: dict) -> float:
    """CPU seconds the analysis of a replayed game is expected to take (charged up front)."""
    commands = len(parse_log(replay["entries"]).turns)
    return round(commands * MOVE_S * chosen_iterations() / ITERATIONS, 3)


def analyse_replay(replay: dict, iterations: int | None = None) -> dict:
    """The analysis of a finished game's replay (its log folded by its rules; each seat's
    decisions valued from that seat's view only), naming why the game ended (`ended_by`)."""
    iterations = iterations or chosen_iterations()
    log = parse_log(replay["entries"])
    rules = rules_of(log.game)
    turns = [Turn(b.n, b.by, b.cmd, b.events) for b in log.turns]
    began = time.thread_time()
    found = analyse(
        rules,
        replay["header"]["game_id"],
        log.opening.events,
        turns,
        len(log.players),
        IterationBudget(iterations),
        candidates,
    )
    return {
        "game_id": replay["header"]["game_id"],
        "game": log.game,
        "iterations": iterations,
        "unit": "expected points of score margin (own score minus the best other score)",
        "ended_by": ending(replay.get("result")),
        **found,
        "cpu_seconds": round(time.thread_time() - began, 3),
    }


def present(game_id: str, raw: dict) -> dict:
    """The analysis record as the API shows it."""
    shown = {"game_id": game_id, "status": raw.get("status", QUEUED), "job_id": raw.get("job")}
    if raw.get("result"):
        shown["result"] = orjson.loads(raw["result"])
    if raw.get("error"):
        shown["error"] = raw["error"]
    return shown


def load(client, game_id: str) -> dict | None:
    """The game's analysis record (None: never requested)."""
    raw = analyses.read(client, game_id)
    return present(game_id, raw) if raw else None


def result_of(client, game_id: str) -> dict | None:
    """The finished analysis of a game (None: none done)."""
    raw = analyses.read_result(client, game_id)
    return orjson.loads(raw) if raw else None


def with_analysis(client, game_id: str, replay: dict) -> dict:
    """The replay of game `game_id` with its finished analysis under `analysis` (outside
    the hash chain: replays.chain), or as it was when there is none."""
    found = result_of(client, game_id)
    return replay if found is None else {**replay, "analysis": found}


def claim(client, game_id: str) -> bool:
    """Claim the game's analysis (True: this request is the one to run it; a failed
    analysis may be claimed again)."""
    job = keys.analysis_job_id(game_id)
    if analyses.claim_new(client, game_id, QUEUED, job, time.time()):
        return True
    status, _ = analyses.status_and_claimed(client, game_id)
    if status == FAILED:
        analyses.drop(client, game_id)
        return claim(client, game_id)
    return False


def pending_since(client, game_id: str) -> float | None:
    """When a queued or running analysis was claimed (None: none is pending)."""
    status, claimed = analyses.status_and_claimed(client, game_id)
    return claimed if status in (QUEUED, RUNNING) else None


def give_up_lost(client, game_id: str, job_gone: bool, now: float | None = None) -> bool:
    """Mark a pending analysis failed when its job is gone (a worker died with it) and
    its claim is older than LOST_AFTER_S, so that a new request runs it again."""
    since = pending_since(client, game_id)
    now = time.time() if now is None else now
    if since is None or not job_gone or now - since < LOST_AFTER_S:
        return False
    mark(client, game_id, FAILED, error="the analysis job was lost")
    return True


def unclaim(client, game_id: str) -> None:
    """Give the claim back (its request failed before the job was queued)."""
    analyses.drop(client, game_id)


def mark(client, game_id: str, status: str, result: dict | None = None, error: str = "") -> None:
    """Record the job's progress (and its result when done)."""
    mapping = {"status": status}
    if result is not None:
        mapping["result"] = orjson.dumps(result)
    if error:
        mapping["error"] = error[:500]
    analyses.write(client, game_id, mapping)


def run(service, game_id: str) -> dict:
    """The job's work: analyse the game and keep the result; a failure is recorded."""
    mark(service.client, game_id, RUNNING)
    try:
        result = analyse_replay(service.replay(game_id))
    except Exception as error:
        mark(service.client, game_id, FAILED, error=type(error).__name__)
        raise
    mark(service.client, game_id, DONE, result)
    return result


__all__ = [
    "ITERATIONS",
    "LOST_AFTER_S",
    "analyse_replay",
    "chosen_iterations",
    "claim",
    "estimate_s",
    "give_up_lost",
    "load",
    "mark",
    "not_requested",
    "pending_since",
    "result_of",
    "run",
    "unclaim",
    "with_analysis",
]
