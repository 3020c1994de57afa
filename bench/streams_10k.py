"""10,000 held streams on one machine while 200 games are played.

Starts the stack as `keltis serve --connections CONNECTIONS` runs it (2 gunicorn processes,
one RQ worker, the default bounds on held requests: at most 32 per client address, the
process's share derived from --connections), creates GAMES two-person games, then opens
STREAMS spectator streams (`GET /v1/games/{id}/stream`), PER_ADDRESS from each loopback
source address 127.1.x.y, from one asyncio loop (a 503 `streams_busy` is tried again after
its Retry-After, as a client would). Once they are open and idle it plays the games for
WINDOW_S (MOVERS threads, each game moving about every MOVE_EVERY_S) while a probe asks
/healthz every PROBE_EVERY_S from 127.0.0.2.

Prints streams_10k_opened (goal: all), streams_10k_healthz_p99_ms (goal < 50), the time from
a move's answer to its line on each stream of its game (streams_10k_notify_p50_ms,
streams_10k_notify_p99_ms, goal p99 < 250; `..._all_p99_ms`: to the last of the game's
streams), and the web processes' RSS per idle stream (streams_10k_rss_kb_per_stream, goal
< 40). The clients run on the same cores as the service: their own CPU is in the figures.
STREAMS_10K (e.g. 2000) and STREAMS_10K_GAMES scale it down.
"""

from __future__ import annotations

import asyncio
import os
import re
import resource
import threading
import time
from collections import Counter, defaultdict

import psutil

from application.live import holds
from bench.api import served_stack
from bench.loadgen import loopback_address, percentile
from bench.stream_flood import Http
from devtools.environment import overridden

STREAMS = int(os.environ.get("STREAMS_10K", "10000"))
GAMES = int(os.environ.get("STREAMS_10K_GAMES", "200"))
CONNECTIONS = 6000  # per web process: `keltis serve --connections 6000`
WEB_WORKERS = 2
PER_ADDRESS = 30  # under the default bound of 32 per client address
OPENING_AT_ONCE = 400  # connections being opened at a time (the listen backlog is 2048)
RETRIES = 5  # a 503 streams_busy is tried again, after its Retry-After
HEAD_TIMEOUT_S = 20.0  # a stream whose answer has not begun by then is tried again
WINDOW_S = 30.0
MOVERS = 8
MOVE_EVERY_S = 5.0  # each game's pace: about GAMES / MOVE_EVERY_S moves per second
PROBE_EVERY_S = 0.05
PROBE_TIMEOUT_S = 5.0
LINE_WAIT_S = 5.0  # a line later than this after its move counts as missing
PLAYER = "127.0.0.1"
PROBE = "127.0.0.2"
VERSION = re.compile(rb'"version":(\d+)')


def raise_file_limit() -> None:
    """As many open files as the hard limit allows: each stream is a socket here."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or soft < hard):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def source_address(index: int) -> str:
    """The loopback address of the `index`-th group of PER_ADDRESS streams."""
    return f"127.1.{index // 250}.{index % 250 + 1}"


class Arrivals:
    """When each stream got the line of each (game, version)."""

    def __init__(self):
        self.at: dict[tuple[str, int], list[float]] = defaultdict(list)
        self.lock = threading.Lock()

    def seen(self, game_id: str, version: int, at: float) -> None:
        with self.lock:
            self.at[(game_id, version)].append(at)


class Spectators:
    """STREAMS streams held by one asyncio loop in a thread."""

    def __init__(self, base_url: str, game_ids: list[str], arrivals: Arrivals):
        self.host, self.port = loopback_address(base_url)
        self.game_ids = game_ids
        self.arrivals = arrivals
        self.statuses: Counter = Counter()  # first answers
        self.open = 0
        self.retried = 0
        self.failed = 0
        self.per_game: Counter = Counter()
        self.opened_in_s = 0.0
        self.loop = asyncio.new_event_loop()
        self.stopping: asyncio.Event | None = None
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self._main(),))
        self.thread.daemon = True

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        if self.stopping is not None:
            self.loop.call_soon_threadsafe(self.stopping.set)

    async def _main(self) -> None:
        self.stopping = asyncio.Event()
        gate = asyncio.Semaphore(OPENING_AT_ONCE)
        began = time.perf_counter()
        opened = [asyncio.Event() for _ in range(STREAMS)]
        tasks = [asyncio.create_task(self._hold(i, gate, opened[i])) for i in range(STREAMS)]
        await asyncio.gather(*(event.wait() for event in opened))
        self.opened_in_s = time.perf_counter() - began
        await self.stopping.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _hold(self, index: int, gate: asyncio.Semaphore, opened: asyncio.Event) -> None:
        game_id = self.game_ids[index % len(self.game_ids)]
        source = source_address(index // PER_ADDRESS)
        request = (
            f"GET /v1/games/{game_id}/stream?after=0 HTTP/1.1\r\nHost: {self.host}\r\n\r\n"
        ).encode()
        writer = None
        try:
            for attempt in range(RETRIES + 1):
                async with gate:
                    try:
                        reader, writer = await asyncio.wait_for(
                            asyncio.open_connection(self.host, self.port, local_addr=(source, 0)),
                            HEAD_TIMEOUT_S,
                        )
                        writer.write(request)
                        await writer.drain()
                        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_TIMEOUT_S)
                    except (OSError, asyncio.IncompleteReadError, TimeoutError):
                        head = b""
                status = head[9:12].decode(errors="replace") if head else "none"
                if attempt == 0:
                    self.statuses[status] += 1
                if status == "200":
                    break
                if writer is not None:
                    writer.close()
                    writer = None
                if status not in ("503", "none") or attempt == RETRIES:
                    self.failed += 1
                    return
                self.retried += 1
                await asyncio.sleep(1.0)
            self.open += 1
            self.per_game[game_id] += 1
            opened.set()
            buffer = b""
            while True:
                chunk = await reader.read(65536)
                if not chunk:
                    return
                at = time.perf_counter()
                buffer += chunk
                cut = buffer.rfind(b"\n")
                if cut < 0:
                    continue
                for match in VERSION.finditer(buffer, 0, cut):
                    self.arrivals.seen(game_id, int(match.group(1)), at)
                buffer = buffer[cut + 1 :]
        except (OSError, asyncio.CancelledError):
            return
        finally:
            opened.set()
            if writer is not None:
                writer.close()


def create_games(base_url: str) -> list[dict]:
    """GAMES two-person games of keltis-card, as created."""
    http = Http(base_url, PLAYER)
    body = {"game": "keltis-card", "players": [{"name": "ann"}, {"name": "bea"}]}
    answers = [http.call("POST", "/v1/games", body) for _ in range(GAMES)]
    refused = [answer for answer in answers if answer[0] != 201]
    if refused:
        raise RuntimeError(f"{len(refused)} games could not be created: {refused[0]}")
    return [created for _, created in answers]


def play(
    base_url: str, games: list[dict], ends: float, acks: dict, tally: Counter, offset: float
) -> None:
    """Move in each of `games` in turn, about every MOVE_EVERY_S per game, until `ends`;
    the time of each move's answer into `acks[(game, version)]`."""
    http = Http(base_url, PLAYER)
    to_move = {g["id"]: g["to_move"] for g in games}
    tokens = {g["id"]: {s["seat"]: s["token"] for s in g["seats"]} for g in games}
    pause = MOVE_EVERY_S / max(1, len(games))
    time.sleep(offset)
    while time.monotonic() < ends:
        for game in games:
            if time.monotonic() >= ends:
                return
            began = time.monotonic()
            game_id = game["id"]
            if to_move[game_id] is None:
                continue
            auth = {"Authorization": f"Bearer {tokens[game_id][to_move[game_id]]}"}
            status, legal = http.call("GET", f"/v1/games/{game_id}/moves", headers=auth)
            if status != 200 or not legal.get("moves"):
                tally["failed_moves"] += 1
                continue
            headers = {**auth, "Prefer": "return=minimal"}
            status, answer = http.call(
                "POST", f"/v1/games/{game_id}/moves", legal["moves"][0], headers
            )
            if status != 200:
                tally["failed_moves"] += 1
                continue
            acks[(game_id, answer["version"])] = time.perf_counter()
            tally["moves"] += 1
            to_move[game_id] = answer["to_move"] if answer["status"] != "finished" else None
            time.sleep(max(0.0, pause - (time.monotonic() - began)))


def probe(base_url: str, ends: float, samples: list[float]) -> None:
    """/healthz every PROBE_EVERY_S on a fresh connection (a new client's view), in ms."""
    while time.monotonic() < ends:
        started = time.perf_counter()
        http = Http(base_url, PROBE, PROBE_TIMEOUT_S)
        status, _ = http.call("GET", "/healthz")
        http.connection.close()
        elapsed = time.perf_counter() - started
        samples.append(elapsed * 1000 if status == 200 else PROBE_TIMEOUT_S * 1000)
        time.sleep(max(0.0, PROBE_EVERY_S - elapsed))


class Memory:
    """Resident memory of the web processes and the worker (psutil)."""

    def __init__(self, stack):
        master = psutil.Process(stack.processes[-1].pid)  # gunicorn, started last
        self.web = master.children()
        self.others = [psutil.Process(p.pid) for p in stack.processes[:-1]]
        self.port = loopback_address(stack.base_url)[1]

    def cpu_s(self) -> tuple[float, float]:
        """CPU seconds (user + system) so far of the web processes, and of this process
        (the clients)."""
        web = sum(sum(process.cpu_times()[:2]) for process in self.web)
        return web, sum(psutil.Process().cpu_times()[:2])

    def web_rss(self) -> int:
        return sum(process.memory_info().rss for process in self.web)

    def all_rss(self) -> int:
        return self.web_rss() + sum(process.memory_info().rss for process in self.others)

    def streams_per_process(self) -> list[int]:
        """Established client connections of each web process."""
        counts = []
        for process in self.web:
            connections = process.net_connections(kind="tcp")
            counts.append(
                sum(
                    1
                    for c in connections
                    if c.status == psutil.CONN_ESTABLISHED and c.laddr and c.laddr.port == self.port
                )
            )
        return counts


def notify_figures(acks: dict, arrivals: Arrivals, per_game: Counter) -> dict:
    samples, whole, missing = [], [], 0
    with arrivals.lock:
        seen = {key: list(times) for key, times in arrivals.at.items()}
    for (game_id, version), acked in acks.items():
        times = [t for t in seen.get((game_id, version), []) if t - acked <= LINE_WAIT_S]
        samples += [max(0.0, t - acked) * 1000 for t in times]
        missing += max(0, per_game[game_id] - len(times))
        if times and len(times) >= per_game[game_id]:
            whole.append(max(0.0, max(times) - acked) * 1000)
    return {"samples": samples, "whole": whole, "missing": missing}


def measure(stack) -> dict:
    base_url = stack.base_url
    memory = Memory(stack)
    games = create_games(base_url)
    time.sleep(2.0)
    rss_idle, all_idle = memory.web_rss(), memory.all_rss()
    arrivals = Arrivals()
    spectators = Spectators(base_url, [g["id"] for g in games], arrivals)
    spectators.start()
    ends = time.monotonic() + 600
    while spectators.opened_in_s == 0.0 and time.monotonic() < ends:
        time.sleep(0.2)
    time.sleep(3.0)  # every stream has caught up and waits
    rss_open, all_open = memory.web_rss(), memory.all_rss()
    per_process = memory.streams_per_process()
    acks: dict = {}
    tally: Counter = Counter()
    healthz: list[float] = []
    ends = time.monotonic() + WINDOW_S
    cpu_before = memory.cpu_s()
    threads = [threading.Thread(target=probe, args=(base_url, ends, healthz), daemon=True)]
    share = [games[i::MOVERS] for i in range(MOVERS)]
    threads += [
        threading.Thread(
            target=play,
            args=(base_url, part, ends, acks, tally, MOVE_EVERY_S * i / MOVERS / len(part)),
            daemon=True,
        )
        for i, part in enumerate(share)
        if part
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WINDOW_S + 60)
    time.sleep(LINE_WAIT_S)
    cpu_after = memory.cpu_s()
    rss_after = memory.web_rss()
    spectators.stop()
    spectators.thread.join(30)
    notify = notify_figures(acks, arrivals, spectators.per_game)
    return {
        "spectators": spectators,
        "per_process": per_process,
        "rss": (rss_idle, rss_open, rss_after, all_idle, all_open),
        "healthz": healthz,
        "tally": tally,
        "cpu": [after - before for after, before in zip(cpu_after, cpu_before, strict=True)],
        "notify": notify,
    }


def run() -> None:
    raise_file_limit()
    wanted = {
        "KELTIS_STREAMS_PER_ADDRESS": str(holds.PER_ADDRESS),
        "KELTIS_STREAMS_PER_ACCOUNT": str(holds.PER_ACCOUNT),
    }
    with (
        overridden(wanted, unset=["KELTIS_STREAMS_PER_PROCESS"]),  # cli.serve derives it
        served_stack(connections=CONNECTIONS, web_workers=WEB_WORKERS) as stack,
    ):
        figures = measure(stack)
    spectators, notify = figures["spectators"], figures["notify"]
    rss_idle, rss_open, rss_after, all_idle, all_open = figures["rss"]
    opened = spectators.open
    per_stream_kb = (rss_open - rss_idle) / max(1, opened) / 1024
    print(f"streams_10k_wanted: {STREAMS}")
    print(f"streams_10k_opened: {opened}")
    print(f"streams_10k_refused_first_try: {STREAMS - spectators.statuses['200']}")
    print(f"streams_10k_not_opened: {spectators.failed}")
    print(f"streams_10k_open_s: {spectators.opened_in_s:.1f}")
    print(f"streams_10k_per_process: {'/'.join(map(str, figures['per_process']))}")
    print(f"streams_10k_healthz_p99_ms: {percentile(figures['healthz'], 0.99):.1f}")
    print(f"streams_10k_healthz_p50_ms: {percentile(figures['healthz'], 0.50):.1f}")
    print(f"streams_10k_moves: {figures['tally']['moves']}")
    print(f"streams_10k_failed_moves: {figures['tally']['failed_moves']}")
    print(f"streams_10k_notify_p50_ms: {percentile(notify['samples'], 0.50):.1f}")
    print(f"streams_10k_notify_p99_ms: {percentile(notify['samples'], 0.99):.1f}")
    print(f"streams_10k_notify_all_p99_ms: {percentile(notify['whole'], 0.99):.1f}")
    print(f"streams_10k_lines: {len(notify['samples'])}")
    print(f"streams_10k_lines_missing: {notify['missing']}")
    print(f"streams_10k_rss_kb_per_stream: {per_stream_kb:.1f}")
    print(f"streams_10k_web_rss_idle_mb: {rss_idle / 2**20:.0f}")
    print(f"streams_10k_web_rss_open_mb: {rss_open / 2**20:.0f}")
    print(f"streams_10k_web_rss_after_moves_mb: {rss_after / 2**20:.0f}")
    web_cpu, client_cpu = figures["cpu"]
    print(f"streams_10k_web_cpu_s_in_window: {web_cpu:.1f}")
    print(f"streams_10k_client_cpu_s_in_window: {client_cpu:.1f}")
    print(f"streams_10k_web_and_worker_rss_mb: {all_open / 2**20:.0f}")
    print(f"streams_10k_web_and_worker_rss_idle_mb: {all_idle / 2**20:.0f}")
    print(f"# first answers: {dict(spectators.statuses)}; retried {spectators.retried}")
    print(f"# clients and service share {os.cpu_count()} cores; load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    run()
