"""Scale-out benchmark: the cost of a move as web processes and workers are added.

One 3-master Redis Cluster (the machine's redis-server >= 7; RQ on a standalone Redis
beside it, as bench.streams_cluster runs it) serves each configuration in turn: the stack as
`keltis serve` runs it with W web processes and K workers (SCALE_OUT_SHAPES, `WxK` pairs;
1x1, 2x2 and 4x4 by default). PERSON_CLIENTS threads play person-vs-person keltis-card
games over HTTP (both seats, as bench.api's clients do) and BOT_CLIENTS threads play
keltis-card against the built-in random bot, whose turns the workers play (the client
long-polls the game's events for them). The stack first stays idle for IDLE_S seconds
(what its processes cost by being there); then after WARMUP moves, MOVES moves (person and
bot moves together) are measured, or fewer once MAX_S seconds have passed.

Per configuration (`scale_out_w<W>_k<K>_*`):
- moves_per_s, moves, bot_moves, errors (answers other than 200: a fresh game each);
- web_cpu_ms_per_move, worker_cpu_ms_per_move (user + system CPU of the processes the
  stack started and their children, from /proc/<pid>/stat, over all measured moves; the
  workers' periodic passes included) and worker_cpu_ms_per_bot_move;
- redis_round_trips_per_move (read events on the masters' client connections),
  redis_commands_per_move (INFO commandstats, a script's own commands included),
  redis_bytes_per_move (in and out), redis_cpu_ms_per_move (the servers' own CPU), all
  summed over the 3 masters; redis_busiest_master_share, the busiest master's part of the
  round trips (a third when they spread evenly); queue_round_trips_per_move and
  queue_cpu_ms_per_move on RQ's Redis;
- idle_web_cpu_ms_per_s, idle_worker_cpu_ms_per_s, idle_redis_round_trips_per_s,
  idle_queue_round_trips_per_s: per second of the idle window; and web_cpu_ms_per_move,
  worker_cpu_ms_per_move, redis_ and queue_round_trips_per_move `_above_idle`: what the
  moves cost beyond the idle rates over the measured window;
- web_rss_mb, worker_rss_mb at the end (a fork's shared pages counted in each process).

The load generator runs on the same cores: on a small machine moves/s cannot grow with
processes; what scales out is the cost per move, which should stay flat.

    .venv/bin/python -m bench scale_out
    SCALE_OUT_MOVES=300 SCALE_OUT_SHAPES=1x1 .venv/bin/python -m bench scale_out
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass

import redis

from bench.api import MINIMAL, Connection, GameClient, served_stack
from bench.figures import figure
from devtools.environment import overridden
from devtools.process_usage import tree_cpu_seconds, tree_rss_bytes
from devtools.redis_binaries import system_redis_server
from devtools.redis_cluster import RedisClusterHarness
from devtools.redis_servers import RedisServer
from devtools.redis_traffic import Traffic, reading, server_traffic, total

SHAPES = os.environ.get("SCALE_OUT_SHAPES", "1x1,2x2,4x4")
MOVES = int(os.environ.get("SCALE_OUT_MOVES", "9000"))
WARMUP = int(os.environ.get("SCALE_OUT_WARMUP", "300"))
MAX_S = float(os.environ.get("SCALE_OUT_MAX_S", "120"))
IDLE_S = float(os.environ.get("SCALE_OUT_IDLE_S", "10"))
PERSON_CLIENTS = int(os.environ.get("SCALE_OUT_PERSON_CLIENTS", "8"))
BOT_CLIENTS = int(os.environ.get("SCALE_OUT_BOT_CLIENTS", "8"))
BOT = "random"
BOT_SEAT = 1
EVENTS_WAIT_S = 5
POLL_S = 0.05  # the main thread's look at the move count
MB = 1024 * 1024


def shapes(text: str) -> list[tuple[int, int]]:
    """`"1x1,2x2"` as [(1, 1), (2, 2)]: web processes by workers."""
    pairs = []
    for item in text.split(","):
        web, _, workers = item.strip().partition("x")
        pairs.append((int(web), int(workers)))
    return pairs


class BotGameClient:
    """Plays keltis-card games against the built-in bot: its own moves over HTTP, the bot's
    (played by the workers) awaited by a long-poll of the game's events and counted there."""

    def __init__(self, base_url: str):
        self.http = Connection(base_url)
        self.moves = 0
        self.bot_moves = 0
        self.games = 0
        self.errors = 0
        self._new_game()

    def _new_game(self) -> None:
        players = [{"name": "ann"}, {"bot": BOT}]
        _, created = self.http.call(
            "POST", "/v1/games", {"game": "keltis-card", "players": players}
        )
        self.url = f"/v1/games/{created['id']}"
        seat = next(s for s in created["seats"] if s["seat"] != BOT_SEAT)
        self.auth = {"Authorization": f"Bearer {seat['token']}"}
        self.version = created["version"]
        self.legal = self._fetch_moves()

    def _fetch_moves(self) -> list[dict]:
        query = f"?version={self.version}"
        return self.http.call("GET", f"{self.url}/moves{query}", headers=self.auth)[1]["moves"]

    def _failed(self) -> None:
        self.errors += 1
        self._new_game()

    def _finished(self) -> None:
        self.games += 1
        self._new_game()

    def step(self) -> None:
        """One move of the person's, or one wait for the bot's."""
        if self.legal:
            move = next((m for m in self.legal if m.get("source") == "deck"), self.legal[0])
            status, answer = self.http.call(
                "POST", f"{self.url}/moves", move, headers={**self.auth, **MINIMAL}
            )
            if status != 200:
                return self._failed()
            self.moves += 1
            self.version = answer["version"]
            if answer["status"] == "finished":
                return self._finished()
            self.legal = answer["legal_moves"]
            return None
        query = f"?after={self.version}&wait={EVENTS_WAIT_S}"
        status, page = self.http.call("GET", f"{self.url}/events{query}", headers=self.auth)
        if status != 200:
            return self._failed()
        events = page["events"]
        self.bot_moves += sum(1 for e in events if e.get("cmd") is not None and e["by"] == BOT_SEAT)
        if events:
            self.version = events[-1]["version"]
        if page["status"] == "finished":
            return self._finished()
        if events:
            self.legal = self._fetch_moves()
        return None


class Load:
    """The client threads, each playing its own games until stopped."""

    def __init__(self, base_url: str, person_clients: int, bot_clients: int):
        self.base_url = base_url
        self.kinds = ["person"] * person_clients + ["bot"] * bot_clients
        self.clients: list = [None] * len(self.kinds)
        self.failures = 0  # clients lost to an exception (a fresh one each)
        self._stop = threading.Event()
        self._threads = [
            threading.Thread(target=self._play, args=(index,), daemon=True)
            for index in range(len(self.kinds))
        ]

    def _client(self, index: int):
        if self.kinds[index] == "bot":
            return BotGameClient(self.base_url)
        return GameClient(self.base_url, seed=index)

    def _play(self, index: int) -> None:
        while not self._stop.is_set():
            try:
                client = self._client(index)
                self.clients[index] = client
                while not self._stop.is_set():
                    if isinstance(client, BotGameClient):
                        client.step()
                    else:
                        client.step(record=True)
            except (OSError, ValueError, KeyError, TypeError):
                self.failures += 1
                self._stop.wait(POLL_S)

    def counts(self) -> tuple[int, int, int]:
        """(all moves, bot moves, errors) so far, of clients alive or replaced."""
        clients = [c for c in self.clients if c is not None]
        bot = sum(getattr(c, "bot_moves", 0) for c in clients)
        errors = sum(c.errors for c in clients) + self.failures
        return sum(c.moves for c in clients) + bot, bot, errors

    def __enter__(self) -> Load:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=EVENTS_WAIT_S + 30)


@dataclass(frozen=True)
class Snapshot:
    at: float
    moves: int
    bot_moves: int
    errors: int
    web_cpu_s: float
    worker_cpu_s: float
    masters: list[Traffic]
    queue: Traffic


@dataclass
class Probe:
    """Readings of one configuration: its processes (by kind) and its Redis servers."""

    web: list[int]
    workers: list[int]
    masters: list[redis.Redis]
    queue: redis.Redis

    def snapshot(self, load: Load | None = None) -> Snapshot:
        moves, bot_moves, errors = load.counts() if load else (0, 0, 0)
        return Snapshot(
            time.monotonic(),
            moves,
            bot_moves,
            errors,
            tree_cpu_seconds(self.web),
            tree_cpu_seconds(self.workers),
            [server_traffic(master) for master in self.masters],
            reading([self.queue]),
        )


def wait_for_moves(load: Load, moves: int, deadline: float) -> None:
    """Until `moves` were made, or `deadline` (monotonic) passed."""
    while load.counts()[0] < moves and time.monotonic() < deadline:
        time.sleep(POLL_S)


def measure(stack, probe: Probe, moves: int, warmup: int, max_s: float, idle_s: float) -> dict:
    """Stay idle `idle_s`, play `warmup` moves, then measure `moves` (or what `max_s`
    seconds allow)."""
    resting = probe.snapshot()
    time.sleep(idle_s)  # the idle window's length, not a wait for anything
    idle = idle_rates(resting, probe.snapshot())
    with Load(stack.base_url, PERSON_CLIENTS, BOT_CLIENTS) as load:
        wait_for_moves(load, warmup, time.monotonic() + max_s)
        before = probe.snapshot(load)
        wait_for_moves(load, before.moves + moves, before.at + max_s)
        after = probe.snapshot(load)
    if stack.check() is not None:
        raise RuntimeError("a service process exited during the measurement")
    return figures_between(before, after, idle) | {
        "web_rss_mb": tree_rss_bytes(probe.web) / MB,
        "worker_rss_mb": tree_rss_bytes(probe.workers) / MB,
    }


def spent(before: Snapshot, after: Snapshot) -> dict:
    """What the processes and the servers spent between two snapshots."""
    masters = [late - early for late, early in zip(after.masters, before.masters, strict=True)]
    return {
        "s": after.at - before.at,
        "web_cpu_ms": (after.web_cpu_s - before.web_cpu_s) * 1000,
        "worker_cpu_ms": (after.worker_cpu_s - before.worker_cpu_s) * 1000,
        "masters": masters,
        "cluster": total(masters),
        "queue": after.queue - before.queue,
    }


def idle_rates(before: Snapshot, after: Snapshot) -> dict:
    """Per second with no client playing: what the processes cost by being there (the
    workers' periodic passes, the web processes' timers)."""
    used = spent(before, after)
    return {
        "web_cpu_ms": used["web_cpu_ms"] / used["s"],
        "worker_cpu_ms": used["worker_cpu_ms"] / used["s"],
        "redis_round_trips": used["cluster"].round_trips / used["s"],
        "queue_round_trips": used["queue"].round_trips / used["s"],
    }


def figures_between(before: Snapshot, after: Snapshot, idle: dict) -> dict:
    """The configuration's figures from two snapshots and its idle rates."""
    moves = after.moves - before.moves
    bot_moves = after.bot_moves - before.bot_moves
    used = spent(before, after)
    masters, cluster, queue = used["masters"], used["cluster"], used["queue"]
    per_move = 1 / moves if moves else float("nan")
    worker_ms = used["worker_cpu_ms"]

    def above_idle(amount: float, name: str) -> float:
        return (amount - idle[name] * used["s"]) * per_move

    return {
        "moves": moves,
        "bot_moves": bot_moves,
        "errors": after.errors - before.errors,
        "moves_per_s": moves / (after.at - before.at),
        "web_cpu_ms_per_move": used["web_cpu_ms"] * per_move,
        "worker_cpu_ms_per_move": worker_ms * per_move,
        "worker_cpu_ms_per_bot_move": worker_ms / bot_moves if bot_moves else float("nan"),
        "redis_round_trips_per_move": cluster.round_trips * per_move,
        "redis_commands_per_move": cluster.commands * per_move,
        "redis_bytes_per_move": (cluster.bytes_in + cluster.bytes_out) * per_move,
        "redis_cpu_ms_per_move": cluster.cpu_s * 1000 * per_move,
        "redis_busiest_master_share": max(m.round_trips for m in masters)
        / max(cluster.round_trips, 1),
        "queue_round_trips_per_move": queue.round_trips * per_move,
        "queue_cpu_ms_per_move": queue.cpu_s * 1000 * per_move,
        "idle_web_cpu_ms_per_s": idle["web_cpu_ms"],
        "idle_worker_cpu_ms_per_s": idle["worker_cpu_ms"],
        "idle_redis_round_trips_per_s": idle["redis_round_trips"],
        "idle_queue_round_trips_per_s": idle["queue_round_trips"],
        "web_cpu_ms_per_move_above_idle": above_idle(used["web_cpu_ms"], "web_cpu_ms"),
        "worker_cpu_ms_per_move_above_idle": above_idle(worker_ms, "worker_cpu_ms"),
        "redis_round_trips_per_move_above_idle": above_idle(
            cluster.round_trips, "redis_round_trips"
        ),
        "queue_round_trips_per_move_above_idle": above_idle(queue.round_trips, "queue_round_trips"),
    }


FORMATS = {"moves": "{:d}", "bot_moves": "{:d}", "errors": "{:d}", "moves_per_s": "{:.0f}"}


def report(web: int, workers: int, figures: dict) -> None:
    """One `name: value` line per figure of the configuration."""
    prefix = f"scale_out_w{web}_k{workers}"
    for name, value in figures.items():
        figure(f"{prefix}_{name}", FORMATS.get(name, "{:.2f}").format(value))


def run_shape(url: str, cluster: RedisClusterHarness, queue: RedisServer, web: int, workers: int):
    """The figures of W web processes and K workers on the cluster."""
    masters = [node.client() for node in cluster.nodes]
    queue_client = queue.client()
    try:
        with served_stack(redis_url=url, web_workers=web, bot_workers=workers) as stack:
            kinds = {"web": [], "worker": []}
            for child in stack.supervisor.children:
                kinds["web" if child.name == "web" else "worker"].append(child.process.pid)
            probe = Probe(kinds["web"], kinds["worker"], masters, queue_client)
            return measure(stack, probe, MOVES, WARMUP, MAX_S, IDLE_S)
    finally:
        for client in (*masters, queue_client):
            client.close()


def run() -> None:
    binary = system_redis_server((7, 0))
    if binary is None:
        figure("scale_out_skipped", "no redis-server >= 7.0 on PATH")
        return
    with RedisClusterHarness(binary=binary) as cluster, RedisServer() as queue:
        url = cluster.url.replace("redis://", "redis+cluster://")
        with overridden({"RQ_REDIS_URL": queue.url}):
            for web, workers in shapes(SHAPES):
                report(web, workers, run_shape(url, cluster, queue, web, workers))


if __name__ == "__main__":
    run()
