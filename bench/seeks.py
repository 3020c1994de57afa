"""Seek pairing benchmark: from two compatible seeks to both seekers hearing `game_started`.

Starts the served stack (bench.api.served_stack), signs up ACCOUNTS accounts, holds one
`GET /v1/me/events` stream open per account from one asyncio client, then all of them open
a rated 2-player keltis-card seek at once (SENDERS threads). Per game made, one sample: from
the later of its two seeks' answers to the later of the two `game_started` lines on its
seekers' streams (a line before the answer counts as 0). Prints seek_pairing_p50_ms and
seek_pairing_p99_ms (goal: p99 under 1,000 ms with 200 accounts seeking at once).

Every client is one address: the bench lifts the per-address bound on open seeks, as
bench.api.served_stack lifts the one on held streams (api.core.holds); no pool bots.
"""

from __future__ import annotations

import re
import statistics
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

from bench.api import Connection, served_stack
from bench.loadgen import HeldStreams, hold_streams
from devtools.environment import overridden

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

    def started(self, name: str, game_id: str) -> None:
        with self.lock:
            self.at.setdefault(game_id, {}).setdefault(name, time.perf_counter())

    def games(self) -> dict[str, dict[str, float]]:
        with self.lock:
            return {game: dict(heard) for game, heard in self.at.items()}


def _streams(base_url: str, accounts: list[tuple[str, str]], heard: Heard) -> HeldStreams:
    def heard_by(name: str):
        return lambda match: heard.started(name, match.group(1).decode())

    streams = [
        ("/v1/me/events", {"Authorization": f"Bearer {key}"}, heard_by(name))
        for name, key in accounts
    ]
    return hold_streams(base_url, streams, STARTED, 200)


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
    held = _streams(base_url, accounts, heard)
    deadline = time.monotonic() + TIMEOUT_S
    while held.open < ACCOUNTS and time.monotonic() < deadline:
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
    held.stop()
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
        "open": held.open,
    }


def run() -> None:
    with overridden(BOUNDS), served_stack(connections=CONNECTIONS) as stack:
        figures = measure(stack.base_url)
    print(f"seek_streams_open: {figures['open']}")
    print(f"seek_seeks_opened: {figures['seeks']}")
    print(f"seek_games_made: {figures['games']}")
    print(f"seek_pairing_p50_ms: {figures['p50']:.1f}")
    print(f"seek_pairing_p99_ms: {figures['p99']:.1f}")


if __name__ == "__main__":
    run()
