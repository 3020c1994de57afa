"""Races: many clients post moves on one game at once; two bot jobs race one bot turn.

Used by tests/reliability/test_races.py and bench/reliability.py.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from dataclasses import dataclass, field

import redis
import requests

import settings
from application.games.service import GameService
from devtools.finished_games import new_bot_games
from devtools.reliability.logcheck import check_log, verify_finished, view_of_fold

CLIENTS = 64
ROUNDS = 10
BOT_GAMES_PER_KIND = 3


class RaceFailure(Exception):
    """A race ended in a way the service promises never happens."""


@dataclass
class RaceResult:
    """What the HTTP race saw, round by round."""

    accepted_per_round: list[int] = field(default_factory=list)
    replayed: int = 0
    conflicts: int = 0
    requests: int = 0

    @property
    def accepted_per_version(self) -> str:
        """ "1" when every round accepted exactly one move, else the counts seen."""
        seen = sorted(set(self.accepted_per_round))
        return str(seen[0]) if len(seen) == 1 else "..".join(map(str, seen))


def _bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def create_human_game(base_url: str, game: str = "keltis-card") -> tuple[str, dict[int, str]]:
    """A two-human game over HTTP: its id and both seats' tokens."""
    body = {"game": game, "players": [{"name": "ann"}, {"name": "bea"}]}
    created = requests.post(f"{base_url}/v1/games", json=body, timeout=10)
    if created.status_code != 201:
        raise RaceFailure(f"create answered {created.status_code}: {created.text}")
    data = created.json()
    return data["id"], {seat["seat"]: seat["token"] for seat in data["seats"]}


def _plan(round_no: int, moves: list[dict], version: int) -> list[tuple[dict, str | None]]:
    """(body, idempotency key) of each client: no key, unique keys, and two shared keys."""
    plan = []
    for i in range(CLIENTS):
        kind = i % 4
        if kind == 2:  # one shared key, one shared body: retries of one request
            body, key = moves[0], f"r{round_no}-shared-a"
        elif kind == 3:
            body, key = moves[1 % len(moves)], f"r{round_no}-shared-b"
        else:
            body = moves[i % len(moves)]
            key = f"r{round_no}-client-{i}" if kind == 1 else None
        plan.append(({**body, "expected_version": version}, key))
    return plan


def race_round(base_url: str, game_id: str, token: str, round_no: int, result: RaceResult):
    """One round: every client posts at once with the same expected version."""
    legal = requests.get(f"{base_url}/v1/games/{game_id}/moves", headers=_bearer(token), timeout=10)
    version, moves = legal.json()["version"], legal.json()["moves"]
    plan = _plan(round_no, moves, version)
    answers: list = [None] * CLIENTS
    barrier = threading.Barrier(CLIENTS)

    def post(i: int) -> None:
        body, key = plan[i]
        headers = _bearer(token) | ({"Idempotency-Key": key} if key else {})
        with requests.Session() as session:
            barrier.wait()
            answers[i] = session.post(
                f"{base_url}/v1/games/{game_id}/moves", json=body, headers=headers, timeout=30
            )

    threads = [threading.Thread(target=post, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    result.requests += CLIENTS
    winners = [
        i
        for i, answer in enumerate(answers)
        if answer.status_code == 200 and "Idempotent-Replayed" not in answer.headers
    ]
    result.accepted_per_round.append(len(winners))
    if len(winners) != 1:
        raise RaceFailure(f"round {round_no}: {len(winners)} moves accepted at version {version}")
    winner = answers[winners[0]].json()
    for i, answer in enumerate(answers):
        if i in winners:
            continue
        _check_loser(i, answer, plan, plan[winners[0]], winner, result)
    return plan[winners[0]][0], winner


def _check_loser(i, answer, plan, winning_plan, winner, result) -> None:
    key = plan[i][1]
    if answer.status_code == 200:  # a retry of the winning request: its first answer
        if key is None or key != winning_plan[1] or answer.json() != winner:
            raise RaceFailure(f"client {i}: a second 200 that is not the winner's replay")
        result.replayed += 1
        return
    error = answer.json().get("error", {})
    if answer.status_code != 409 or error.get("code") != "version_conflict":
        raise RaceFailure(f"client {i}: {answer.status_code} {answer.text}")
    if error.get("current_version") != winner["version"]:
        raise RaceFailure(f"client {i}: 409 names version {error.get('current_version')}")
    result.conflicts += 1


def run_http_race(base_url: str, client: redis.Redis, rounds: int = ROUNDS) -> RaceResult:
    """`rounds` rounds of CLIENTS racing clients on one game; then check log and fold."""
    game_id, tokens = create_human_game(base_url)
    result = RaceResult()
    played = []
    for round_no in range(rounds):
        state = requests.get(f"{base_url}/v1/games/{game_id}", timeout=10).json()
        body, _ = race_round(base_url, game_id, tokens[state["to_move"]], round_no, result)
        played.append({k: v for k, v in body.items() if k != "expected_version"})
    checked = check_log(client, game_id)
    if [cmd for _, cmd in checked.commands] != played:
        raise RaceFailure("the log's commands are not exactly the accepted moves")
    for seat in (0, 1, None):
        headers = _bearer(tokens[seat]) if seat is not None else {}
        shown = requests.get(f"{base_url}/v1/games/{game_id}", headers=headers, timeout=10)
        if shown.json()["view"] != view_of_fold(checked, seat):
            raise RaceFailure(f"the view of seat {seat} differs from a fold of the log")
    return result


# ----- two bot jobs racing ---------------------------------------------------------------


def _bot_job_process(redis_url, jobs, barrier, results) -> None:
    """Child process: run the bot job of every (game, version), in step with the other."""
    os.environ["REDIS_URL"] = redis_url
    settings.reload()  # a forked child: not the settings its parent read
    from application.operations.jobs import play_bot_turns

    played = {}
    for game_id, version in jobs:
        barrier.wait(timeout=60)
        played[game_id] = play_bot_turns(game_id, version)
    results.put(played)


@dataclass
class BotRaceResult:
    games: int
    turns_in_logs: int
    turns_claimed: int
    reports: list[str]


def run_bot_race(redis_url: str, games_per_kind: int = BOT_GAMES_PER_KIND) -> BotRaceResult:
    """Two processes run the same bot jobs at the same moment; every game must end cleanly
    with each turn counted by exactly one of them."""
    client = redis.Redis.from_url(redis_url)
    service = GameService(client)
    jobs = [(record.game_id, record.version) for record in new_bot_games(service, games_per_kind)]
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(2), context.Queue()
    processes = [
        context.Process(target=_bot_job_process, args=(redis_url, jobs, barrier, results))
        for _ in range(2)
    ]
    for process in processes:
        process.start()
    claimed = [results.get(timeout=120) for _ in processes]
    for process in processes:
        process.join(timeout=30)
    turns_claimed = sum(sum(played.values()) for played in claimed)
    turns_in_logs, reports = 0, []
    for game_id, _ in jobs:
        checked = check_log(client, game_id)
        if not checked.record.finished:
            raise RaceFailure(f"bot game {game_id} did not reach its end")
        reports.append(verify_finished(checked))
        turns_in_logs += len(checked.commands)
    client.close()
    return BotRaceResult(len(jobs), turns_in_logs, turns_claimed, reports)
