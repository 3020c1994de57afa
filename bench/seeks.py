"""Seek pairing benchmark: from two compatible seeks to both seekers hearing `game_started`.

Starts the served stack (bench.api.served_stack), signs up ACCOUNTS accounts, holds one
`GET /v1/me/events` stream open per account from one asyncio client, then all of them open
a rated 2-player keltis-card seek at once (SENDERS threads). Per game made, one sample: from
the later of its two seeks' answers to the later of the two `game_started` lines on its
seekers' streams (a line before the answer counts as 0). Prints seek_pairing_p50_ms and
seek_pairing_p99_ms (goal: p99 under 1,000 ms with 200 accounts seeking at once).

Every client is one address: the bench lifts the per-address bound on open seeks, as
bench.api.served_stack lifts the one on held streams (api.holds); no pool bots.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import statistics
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

from bench.api import Connection, served_stack

ACCOUNTS = 200
SENDERS = 16
CONNECTIONS = 400  # per gunicorn process (2): every stream and the senders
TIMEOUT_S = 30.0
STARTED = re.compile(rb'\{"type":"game_started","game":"([A-Za-z0-9_-]+)"\}')
BOUNDS = {"KELTIS_SEEKS_PER_ADDRESS": "0", "KELTIS_POOL_BOTS": ""}


class Heard:
    """When each account heard `game_started` for each game."""

    def __init__(self):
        self.at: dict[str, dict[str, float]] = {}
        self.lock = threading.Lock()
        self.open = 0

    def started(self, name: str, game_id: str) -> None:
        with self.lock:
            self.at.setdefault(game_id, {}).setdefault(name, time.perf_counter())

    def games(self) -> dict[str, dict[str, float]]:
        with self.lock:
            return {game: dict(heard) for game, heard in self.at.items()}


async def _listen(host: str, port: int, name: str, key: str, heard: Heard, stop) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    request = f"GET /v1/me/events HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {key}\r\n"
    writer.write((request + "\r\n").encode())
    await writer.drain()
    heard.open += 1
    buffer = b""
    try:
        while not stop.is_set():
            chunk = await reader.read(65536)
            if not chunk:
                return
            buffer += chunk
            for match in STARTED.finditer(buffer):
                heard.started(name, match.group(1).decode())
            buffer = buffer[-200:]
    finally:
        writer.close()


def _streams(base_url: str, accounts: list[tuple[str, str]], heard: Heard):
    parts = urlsplit(base_url)
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()

    async def main():
        tasks = [
            asyncio.create_task(_listen(parts.hostname, parts.port, n, k, heard, stop))
            for n, k in accounts
        ]
        await asyncio.gather(*tasks, return_exceptions=True)

    thread = threading.Thread(target=loop.run_until_complete, args=(main(),), daemon=True)
    thread.start()
    return lambda: loop.call_soon_threadsafe(stop.set)


def measure(base_url: str) -> dict:
    http = Connection(base_url)
    accounts = []
    for _ in range(ACCOUNTS):
        name = "sb" + uuid.uuid4().hex[:12]
        status, made = http.call("POST", "/v1/accounts", {"name": name, "bot": True})
        if status != 201:
            raise RuntimeError(f"sign-up answered {status}: {made}")
        accounts.append((made["name"], made["key"]))
    heard = Heard()
    stop = _streams(base_url, accounts, heard)
    deadline = time.monotonic() + TIMEOUT_S
    while heard.open < ACCOUNTS and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # every stream has caught up and waits
    answered: dict[str, float] = {}
    local = threading.local()

    def seek(account: tuple[str, str]) -> None:
        if not hasattr(local, "http"):
            local.http = Connection(base_url)
        name, key = account
        body = {"game": "keltis-card", "players": 2, "rated": True}
        status, _ = local.http.call(
            "POST", "/v1/seeks", body, headers={"Authorization": f"Bearer {key}"}
        )
        if status == 201:
            answered[name] = time.perf_counter()

    with ThreadPoolExecutor(SENDERS) as senders:
        list(senders.map(seek, accounts))
    expected = len(answered) // 2
    while time.monotonic() < deadline + TIMEOUT_S:
        games = heard.games()
        if sum(len(h) == 2 for h in games.values()) >= expected:
            break
        time.sleep(0.05)
    stop()
    samples = []
    for found in heard.games().values():
        if len(found) != 2:
            continue
        asked = max(answered.get(name, 0.0) for name in found)
        samples.append(max(0.0, max(found.values()) - asked) * 1000)
    samples.sort()
    if not samples:
        raise RuntimeError("no game was made")
    return {
        "p50": statistics.median(samples),
        "p99": samples[max(0, int(len(samples) * 0.99) - 1)],
        "games": len(samples),
        "seeks": len(answered),
        "open": heard.open,
    }


@contextlib.contextmanager
def _bounds_lifted():
    saved = {name: os.environ.get(name) for name in BOUNDS}
    os.environ.update(BOUNDS)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def run() -> None:
    with _bounds_lifted(), served_stack(connections=CONNECTIONS) as stack:
        figures = measure(stack.base_url)
    print(f"seek_streams_open: {figures['open']}")
    print(f"seek_seeks_opened: {figures['seeks']}")
    print(f"seek_games_made: {figures['games']}")
    print(f"seek_pairing_p50_ms: {figures['p50']:.1f}")
    print(f"seek_pairing_p99_ms: {figures['p99']:.1f}")


if __name__ == "__main__":
    run()
