"""Stream-flood benchmark: /healthz and other clients' moves while one
address tries to hold 1,000 game streams.

Starts the stack as `keltis serve` (make run) runs it: gunicorn with its default processes and
connections, one RQ worker, the default bounds on held requests (KELTIS_STREAMS_PER_ADDRESS
and the others; the benchmarks' usual unbounded rate limit stays, so only these bounds
act). Creates PLAYERS games of a person against a `greedy` bot, then at once:
- the flooder, from loopback address 127.0.0.66 (no key), opens FLOOD connections each asking
  for a game stream and holds every one open as long as the server keeps it (a stream read to
  its end, a refused one left open too);
- PLAYERS clients from 127.0.0.1 play their games (GET the game, GET /moves, POST a move
  after THINK_S; long-poll the events while the bot moves) for WINDOW_S;
- a probe from 127.0.0.2 asks /healthz every PROBE_EVERY_S (a timeout counts as its full
  PROBE_TIMEOUT_S).
Prints healthz_p99_ms_under_stream_flood over the whole window (goal < 50), its max and its
p99 from BURST_S on (once the 1,000 attempts were answered), the flooder's streams held and
refused, the players' moves and failed moves (goal 0).
"""

from __future__ import annotations

import asyncio
import http.client
import json
import threading
import time
from collections import Counter
from contextlib import contextmanager

from application.live import holds
from bench.api import served_stack
from bench.loadgen import loopback_address, percentile
from devtools.environment import overridden

FLOOD = 1000
PLAYERS = 20
WINDOW_S = 20.0
THINK_S = 0.2  # a player's pause before each move (a quick bot, not a load generator)
PROBE_EVERY_S = 0.05
PROBE_TIMEOUT_S = 5.0
BURST_S = 3.0  # the flood's 1,000 connections arrive within it (a figure leaves it out)
FLOODER = "127.0.0.66"
PROBE = "127.0.0.2"
PLAYER = "127.0.0.1"


@contextmanager
def service_defaults():
    """The bounds on held requests at the service's defaults while the stack runs (the
    other benchmarks, whose clients all share one address, lift the per-address bound)."""
    wanted = {
        "KELTIS_STREAMS_PER_ADDRESS": str(holds.PER_ADDRESS),
        "KELTIS_STREAMS_PER_ACCOUNT": str(holds.PER_ACCOUNT),
    }
    with overridden(wanted, unset=["KELTIS_STREAMS_PER_PROCESS"]):  # cli.serve derives it
        yield


class Http:
    """One keep-alive connection from a chosen loopback source address."""

    def __init__(self, base_url: str, source: str, timeout_s: float = 30.0):
        host, port = loopback_address(base_url)
        self.connection = http.client.HTTPConnection(
            host, port, timeout=timeout_s, source_address=(source, 0)
        )

    def call(self, method: str, path: str, body=None, headers=None) -> tuple[int, dict]:
        payload = None if body is None else json.dumps(body)
        try:
            self.connection.request(
                method,
                path,
                body=payload,
                headers={"Content-Type": "application/json", **(headers or {})},
            )
            response = self.connection.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            return 0, {}
        try:
            return response.status, json.loads(raw) if raw else {}
        except ValueError:
            return response.status, {}


def create_games(base_url: str) -> list[dict]:
    http = Http(base_url, PLAYER)
    games = []
    for _ in range(PLAYERS):
        players = [{"name": "ann"}, {"name": "rob", "bot": "greedy"}]
        status, created = http.call(
            "POST", "/v1/games", {"game": "keltis-card", "players": players}
        )
        if status != 201:
            raise RuntimeError(f"a game could not be created: {status} {created}")
        games.append(created)
    return games


def play(base_url: str, created: dict, ends: float, tally: Counter) -> None:
    """Play seat 0 of a game against its bot until `ends` or the game's end."""
    http = Http(base_url, PLAYER)
    game_id = created["id"]
    auth = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    version = created["version"]
    while time.monotonic() < ends:
        status, game = http.call("GET", f"/v1/games/{game_id}", headers=auth)
        if status != 200:
            tally["failed_reads"] += 1
            continue
        if game["status"] == "finished":
            tally["games_finished"] += 1
            return
        version = game["version"]
        if game["to_move"] != 0:
            path = f"/v1/games/{game_id}/events?after={version}&wait=5"
            status, _ = http.call("GET", path, headers=auth)
            if status != 200:
                tally["failed_polls"] += 1
            continue
        time.sleep(THINK_S)
        status, legal = http.call("GET", f"/v1/games/{game_id}/moves", headers=auth)
        if status != 200 or not legal.get("moves"):
            tally["failed_moves"] += 1
            continue
        status, _ = http.call("POST", f"/v1/games/{game_id}/moves", legal["moves"][0], auth)
        tally["moves"] += 1
        if status != 200:
            tally["failed_moves"] += 1


def probe(base_url: str, ends: float, samples: list[tuple[float, float]]) -> None:
    """/healthz every PROBE_EVERY_S, each on a fresh connection (a new client's view);
    samples of (seconds since the flood began, milliseconds)."""
    began = time.monotonic()
    while time.monotonic() < ends:
        started = time.perf_counter()
        at = time.monotonic() - began
        http = Http(base_url, PROBE, PROBE_TIMEOUT_S)
        status, _ = http.call("GET", "/healthz")
        http.connection.close()
        elapsed = time.perf_counter() - started
        samples.append((at, elapsed * 1000 if status == 200 else PROBE_TIMEOUT_S * 1000))
        time.sleep(max(0.0, PROBE_EVERY_S - elapsed))


async def _attempt(host: str, port: int, path: str, ends: float, tally: Counter) -> None:
    try:
        reader, writer = await asyncio.open_connection(host, port, local_addr=(FLOODER, 0))
    except OSError:
        tally["connect_failed"] += 1
        return
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        await writer.drain()
        head = await asyncio.wait_for(reader.read(64), max(0.1, ends - time.monotonic()))
        status = head[9:12].decode(errors="replace") if head.startswith(b"HTTP/") else "none"
        tally[status] += 1
        while time.monotonic() < ends:  # held open as long as the server lets it
            chunk = await asyncio.wait_for(reader.read(65536), max(0.1, ends - time.monotonic()))
            if not chunk:
                return
    except (OSError, TimeoutError):
        return
    finally:
        writer.close()


def flood(base_url: str, game_ids: list[str], ends: float, tally: Counter) -> threading.Thread:
    host, port = loopback_address(base_url)

    async def main():
        await asyncio.gather(
            *(
                _attempt(
                    host,
                    port,
                    f"/v1/games/{game_ids[i % len(game_ids)]}/stream?after=0",
                    ends,
                    tally,
                )
                for i in range(FLOOD)
            )
        )

    thread = threading.Thread(target=asyncio.run, args=(main(),), daemon=True)
    thread.start()
    return thread


def measure(base_url: str) -> dict:
    games = create_games(base_url)
    ends = time.monotonic() + WINDOW_S
    flooded, played, samples = Counter(), Counter(), []
    threads = [flood(base_url, [g["id"] for g in games], ends + 2, flooded)]
    threads.append(threading.Thread(target=probe, args=(base_url, ends, samples), daemon=True))
    threads += [
        threading.Thread(target=play, args=(base_url, g, ends, played), daemon=True) for g in games
    ]
    for thread in threads[1:]:
        thread.start()
    for thread in threads:
        thread.join(WINDOW_S + 30)
    return {"samples": samples, "flood": flooded, "played": played}


def run() -> None:
    with service_defaults(), served_stack() as stack:
        figures = measure(stack.base_url)
    timed, flooded, played = figures["samples"], figures["flood"], figures["played"]
    samples = [ms for _, ms in timed]
    settled = [ms for at, ms in timed if at >= BURST_S]
    print(f"healthz_p99_ms_under_stream_flood: {percentile(samples, 0.99):.1f}")
    print(f"stream_flood_healthz_p50_ms: {percentile(samples, 0.50):.1f}")
    print(f"stream_flood_healthz_max_ms: {max(samples):.1f}")
    print(f"stream_flood_healthz_p99_ms_after_burst: {percentile(settled, 0.99):.1f}")
    print(f"stream_flood_healthz_probes: {len(samples)}")
    print(f"stream_flood_streams_held: {flooded['200']}")
    print(f"stream_flood_streams_refused: {flooded['429'] + flooded['503']}")
    print(f"stream_flood_attempts_unanswered: {FLOOD - sum(flooded.values())}")
    print(f"stream_flood_moves: {played['moves']}")
    print(f"stream_flood_failed_moves: {played['failed_moves']}")
    print(f"# flooder statuses: {dict(flooded)}; players: {dict(played)}")


if __name__ == "__main__":
    run()
