"""Faults: SIGKILL a bot worker mid-game; SIGKILL Redis (AOF, fsync always) mid-stream.

Used by tests/reliability/test_faults.py and bench/reliability.py.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import redis
import requests

from application.games.service import GameService
from application.operations.jobs import fair_queue, fetch_job
from devtools import process_reaper
from devtools.finished_games import new_bot_games
from devtools.picks import rotating_pick
from devtools.reliability.logcheck import check_log, verify_finished
from store import keys
from store.games.stalls import StallStore

ROOT = Path(__file__).resolve().parents[2]
ERROR_KEYS = {"code", "message", "rule"}


class FaultFailure(Exception):
    """The service broke a promise under a fault."""


# ----- worker faults ---------------------------------------------------------------------


def start_worker(
    redis_url: str, extra_env: dict | None = None, stderr_path: Path | None = None
) -> subprocess.Popen:
    """A real `keltis worker` with a fast sweep (lost jobs come back within a second); its
    stderr goes to `stderr_path` when given (what a failure report quotes)."""
    command = [
        str(Path(sys.executable).parent / "keltis"), "worker",
        "--sweep-every", "0.2", "--stale-after", "0.5",
    ]  # fmt: skip
    env = {**os.environ, "REDIS_URL": redis_url, **(extra_env or {})}
    with open(stderr_path or os.devnull, "ab") as stderr:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            preexec_fn=process_reaper.die_with_parent,
        )
    process_reaper.register(process)
    return process


def sigkill(process: subprocess.Popen) -> None:
    """SIGKILL (no clean-up of any kind) and reap."""
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=10)
    process_reaper.unregister(process)


@dataclass
class WorkerFaultResult:
    games: int
    kills: int
    commands: int
    reports: list[str]


def _progress(client, service: GameService, game_ids: list[str]) -> tuple[int, int]:
    """(log entries in all games, finished games)."""
    total = sum(service.store.length(game_id) for game_id in game_ids)
    finished = sum(1 for game_id in game_ids if check_log(client, game_id).record.finished)
    return total, finished


def _worker_log() -> Path:
    """A new temporary file for a worker's stderr (the caller removes it)."""
    handle, path = tempfile.mkstemp(prefix="keltis-worker-", suffix=".log")
    os.close(handle)
    return Path(path)


def _stderr_tail(stderr_path: Path) -> str:
    """The end of a worker's stderr, as a failure report quotes it."""
    tail = stderr_path.read_text(errors="replace")[-4000:] if stderr_path.exists() else ""
    return "\n-- worker stderr --\n" + tail


def _alive_or_exited(worker: subprocess.Popen) -> str:
    """How a failure report names the last worker's state."""
    return "alive" if worker.poll() is None else "exited"


def _stuck_report(client, service: GameService, game_ids: list[str], stderr_path: Path) -> str:
    """What a game that did not end was waiting for: its log, its bot-due entry, its stall,
    its job and the fair queue; then the tail of the last worker's stderr."""
    lines = []
    for game_id in game_ids:
        record = check_log(client, game_id).record
        if record.finished:
            continue
        version = service.store.length(game_id)
        job_id = keys.bot_job_id(game_id, version)
        job = fetch_job(client, job_id)
        lines.append(
            f"{game_id}: version {version}, to move {record.to_move},"
            f" bot due since {client.zscore(keys.bot_turns(), game_id)},"
            f" stall {StallStore(client).get(game_id)},"
            f" job {job.get_status(refresh=False) if job else None},"
            f" fair-queued {fair_queue(client).waiting(job_id)}"
        )
    return "\n".join(lines) + _stderr_tail(stderr_path)


def _tournament_report(redis_url: str, tid: str, stderr_path: Path) -> str:
    """What a tournament that did not finish was waiting for: its dispatch counters, leases
    and revivals, each game job's RQ state and the queues; then the last worker's stderr."""
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    lines = [
        f"dispatch {client.hgetall(keys.tournament_dispatch(tid))}",
        f"leases {client.hgetall(keys.tournament_leases(tid))}",
        f"revivals {client.hgetall(keys.tournament_revivals(tid))}",
        f"recorded {sorted(client.hkeys(keys.tournament_outcomes(tid)), key=int)}",
    ]
    for job_key in sorted(client.scan_iter(match=f"rq:job:*{tid}*")):
        fields = client.hmget(job_key, ["status", "origin", "started_at", "ended_at"])
        lines.append(f"{job_key}: {fields}")
    for queue_key in sorted(client.scan_iter(match="rq:queue:*")):
        if client.type(queue_key) == "list":
            lines.append(f"{queue_key}: {client.lrange(queue_key, 0, 20)}")
    for registry in sorted(client.scan_iter(match="rq:wip:*")):
        lines.append(f"{registry}: {client.zrange(registry, 0, -1, withscores=True)}")
    client.close()
    return "\n".join(lines) + _stderr_tail(stderr_path)


def run_worker_kills(redis_url: str, games_per_kind: int = 4, kills: int = 2) -> WorkerFaultResult:
    """Bot games played by workers that are SIGKILLed mid-game; all must end, logs valid."""
    client = redis.Redis.from_url(redis_url)
    service = GameService(client)
    game_ids = [record.game_id for record in new_bot_games(service, games_per_kind)]
    start_total, _ = _progress(client, service, game_ids)
    done_kills = 0
    started: list[subprocess.Popen] = []
    stderr_path: Path | None = None
    try:
        for _ in range(kills):
            worker = start_worker(redis_url)
            started.append(worker)
            before, _ = _progress(client, service, game_ids)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:  # kill only once it has played some turns
                total, finished = _progress(client, service, game_ids)
                if total > before + 20 or finished == len(game_ids):
                    break
                time.sleep(0.01)
            sigkill(worker)
            done_kills += 1
            if finished == len(game_ids):
                break
        stderr_path = _worker_log()
        worker = start_worker(redis_url, stderr_path=stderr_path)
        started.append(worker)
        deadline = time.monotonic() + 90
        while _progress(client, service, game_ids)[1] < len(game_ids):
            if time.monotonic() > deadline or worker.poll() is not None:
                raise FaultFailure(
                    "games did not all end after the worker kills"
                    f" (last worker {_alive_or_exited(worker)}):\n"
                    + _stuck_report(client, service, game_ids, stderr_path)
                )
            time.sleep(0.1)
    finally:
        for process in started:
            if process.poll() is None:
                sigkill(process)
        if stderr_path is not None:
            stderr_path.unlink(missing_ok=True)
    reports, commands = [], 0
    for game_id in game_ids:
        checked = check_log(client, game_id)
        reports.append(verify_finished(checked))
        commands += len(checked.commands)
    client.close()
    if commands <= start_total:
        raise FaultFailure("no bot turn was played")
    return WorkerFaultResult(len(game_ids), done_kills, commands, reports)


# ----- Redis faults ----------------------------------------------------------------------


@dataclass
class StreamLog:
    """Everything the move stream saw."""

    acked: list[tuple[str, int, dict]] = field(default_factory=list)  # game, version, cmd
    statuses: dict[int, int] = field(default_factory=dict)
    unavailable_codes: set[str] = field(default_factory=set)
    bad: list[str] = field(default_factory=list)
    games: set[str] = field(default_factory=set)

    def saw(self, response: requests.Response) -> None:
        self.statuses[response.status_code] = self.statuses.get(response.status_code, 0) + 1
        if response.status_code >= 500:
            try:
                error = response.json()["error"]
            except (ValueError, KeyError, TypeError):
                self.bad.append(f"{response.status_code} without the error shape")
                return
            if set(error) - {"current_version"} != ERROR_KEYS or response.status_code != 503:
                self.bad.append(f"{response.status_code}: {response.text[:200]}")
            self.unavailable_codes.add(error["code"])


class MoveStream(threading.Thread):
    """Plays two-human games over HTTP, retrying every request through 503s with the same
    Idempotency-Key, and records every move answered 2xx."""

    def __init__(self, base_url: str):
        super().__init__(name="move-stream", daemon=True)
        self.base_url = base_url
        self.log = StreamLog()
        self.stopped = threading.Event()
        self.http = requests.Session()

    def _send(self, method: str, path: str, **kwargs) -> requests.Response | None:
        """The first non-503 answer (None when stopped first)."""
        while not self.stopped.is_set():
            response = self.http.request(method, self.base_url + path, timeout=30, **kwargs)
            self.log.saw(response)
            if response.status_code != 503:
                return response
            time.sleep(0.02)
        return None

    def run(self) -> None:
        try:
            while not self.stopped.is_set():
                self._play_one_game()
        except Exception as error:  # recorded; the main thread reports it
            self.log.bad.append(f"stream crashed: {error!r}")

    def _play_one_game(self) -> None:
        body = {"game": "keltis-card", "players": [{"name": "ann"}, {"name": "bea"}]}
        created = self._send("POST", "/v1/games", json=body)
        if created is None:
            return
        game_id = created.json()["id"]
        self.log.games.add(game_id)
        tokens = {seat["seat"]: seat["token"] for seat in created.json()["seats"]}
        turn = 0
        while not self.stopped.is_set():
            state = self._send("GET", f"/v1/games/{game_id}")
            if state is None or state.json()["status"] == "finished":
                return
            auth = {"Authorization": f"Bearer {tokens[state.json()['to_move']]}"}
            legal = self._send("GET", f"/v1/games/{game_id}/moves", headers=auth)
            if legal is None:
                return
            moves, version = legal.json()["moves"], legal.json()["version"]
            if not moves:
                continue
            move = rotating_pick(moves, turn)
            turn += 1
            key = uuid.uuid4().hex
            posted = self._send(
                "POST",
                f"/v1/games/{game_id}/moves",
                json={**move, "expected_version": version},
                headers={**auth, "Idempotency-Key": key},
            )
            if posted is not None and posted.status_code == 200:
                first_version = posted.json()["events"][0]["version"]
                self.log.acked.append((game_id, first_version, move))
            elif posted is not None and posted.status_code != 409:
                self.log.bad.append(f"move answered {posted.status_code}: {posted.text[:200]}")

    def stop(self) -> None:
        self.stopped.set()
        self.join(timeout=60)
        self.http.close()


@dataclass
class RedisFaultResult:
    kills: int
    acked: int
    lost: int
    statuses: dict[int, int]
    games: int


def _acked(streams: list[MoveStream]) -> int:
    return sum(len(stream.log.acked) for stream in streams)


def _wait_for_acks(streams: list[MoveStream], count: int, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while _acked(streams) < count:
        if time.monotonic() > deadline or not all(stream.is_alive() for stream in streams):
            raise FaultFailure(f"the streams stalled at {_acked(streams)} acked moves")
        time.sleep(0.01)


def run_redis_kills(
    server,
    base_url: str,
    kills: int = 2,
    moves_between: int = 40,
    down_s: float = 0.6,
    streams: int = 4,
) -> RedisFaultResult:
    """`streams` clients play moves at once; SIGKILL Redis `kills` times (down `down_s` s
    each) and restart it from its AOF. Every acked move must be in its log at its version."""
    players = [MoveStream(base_url) for _ in range(streams)]
    for player in players:
        player.start()
    try:
        for kill in range(kills):
            _wait_for_acks(players, moves_between * (kill + 1))
            server.kill()
            time.sleep(down_s)
            server.start()
        _wait_for_acks(players, moves_between * (kills + 1))
    finally:
        for player in players:
            player.stop()
    client = server.client()
    seen = StreamLog()
    for player in players:
        seen.acked += player.log.acked
        seen.bad += player.log.bad
        seen.games |= player.log.games
        for status, count in player.log.statuses.items():
            seen.statuses[status] = seen.statuses.get(status, 0) + count
    logs = {game_id: check_log(client, game_id) for game_id in seen.games}
    lost = 0
    for game_id, version, move in seen.acked:
        entries = logs[game_id].entries
        if version > len(entries) or entries[version - 1].cmd != move:
            lost += 1
    if seen.bad:
        raise FaultFailure("; ".join(seen.bad[:5]))
    return RedisFaultResult(kills, len(seen.acked), lost, seen.statuses, len(logs))


# ----- tournament games under worker faults ------------------------------------------------


@dataclass
class TournamentFaultResult:
    games: int
    kills: int
    verified: int
    standings_games: int
    standings_match_logs: bool


def run_tournament_kills(redis_url: str, games: int = 24, kills: int = 2) -> TournamentFaultResult:
    """A tournament on workers SIGKILLed while it runs: every game ends with a verified
    replay, and the standings count each game exactly once (as the games' own logs say)."""
    from api import create_app
    from devtools.tallies import recompute_from_logs

    app = create_app({"REDIS_URL": redis_url, "TESTING": True})
    http = app.test_client()
    body = {"game": "keltis-card", "bots": ["greedy", "random"], "players_per_game": 2}
    tid = http.post("/v1/tournaments", json={**body, "games": games}).get_json()["id"]

    def progress() -> dict:
        return http.get(f"/v1/tournaments/{tid}").get_json()

    started: list[subprocess.Popen] = []
    stderr_path: Path | None = None
    done_kills = 0
    try:
        for _ in range(kills):
            worker = start_worker(redis_url)
            started.append(worker)
            before = progress()["progress"]["done"]
            deadline = time.monotonic() + 30
            while progress()["progress"]["done"] == before and time.monotonic() < deadline:
                time.sleep(0.005)
            sigkill(worker)
            done_kills += 1
        stderr_path = _worker_log()
        worker = start_worker(redis_url, stderr_path=stderr_path)
        started.append(worker)
        deadline = time.monotonic() + 120
        while progress()["status"] != "finished":
            if time.monotonic() > deadline or worker.poll() is not None:
                raise FaultFailure(
                    f"tournament stuck at {progress()['progress']}"
                    f" (last worker {_alive_or_exited(worker)}):\n"
                    + _tournament_report(redis_url, tid, stderr_path)
                )
            time.sleep(0.1)
    finally:
        for process in started:
            if process.poll() is None:
                sigkill(process)
        if stderr_path is not None:
            stderr_path.unlink(missing_ok=True)
    final = progress()
    client = redis.Redis.from_url(redis_url)
    verified = 0
    for game_id in final["game_ids"]:
        verify_finished(check_log(client, game_id))
        verified += 1
    totals = recompute_from_logs(client, final["game_ids"], body["bots"])
    match = all(
        (row["games"], row["wins"], row["shared_wins"])
        == (totals[row["bot"]]["games"], totals[row["bot"]]["wins"], totals[row["bot"]]["shared"])
        for row in final["standings"]
    )
    client.close()
    return TournamentFaultResult(
        games, done_kills, verified, sum(row["games"] for row in final["standings"]), match
    )
