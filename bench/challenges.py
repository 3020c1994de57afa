"""Challenge round-trip benchmark: from a challenge's POST to its `challenge` line on the
challenged account's held event stream (GET /v1/me/events).

Starts the served stack (bench.api.served_stack), signs up TARGETS accounts that each hold
one event stream open (one asyncio client) and CHALLENGERS accounts, then posts SAMPLES
challenges one after another, each to the next target, and cancels it once its line came.
The time from sending the POST to the line's arrival is one sample. Prints
challenge_roundtrip_p50_ms and challenge_roundtrip_ms (the p99; goal < 100).
"""

from __future__ import annotations

import asyncio
import re
import secrets
import statistics
import threading
import time
from urllib.parse import urlsplit

from bench.api import Connection, served_stack
from bench.streams import Arrivals

TARGETS = 50
CHALLENGERS = 10
SAMPLES = 300
LINE = re.compile(rb'"type":"challenge","challenge":\{"id":"([A-Za-z0-9_-]+)"')


async def _hold(host: str, port: int, key: str, arrivals: Arrivals, stop) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    request = f"GET /v1/me/events HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {key}\r\n"
    writer.write(request.encode() + b"\r\n")
    await writer.drain()
    arrivals.open += 1
    buffer = b""
    try:
        while not stop.is_set():
            chunk = await reader.read(65536)
            if not chunk:
                return
            buffer += chunk
            for match in LINE.finditer(buffer):
                arrivals.seen(match.group(1).decode(), 0)
            buffer = buffer[-256:]
    finally:
        writer.close()


def _streams(base_url: str, keys: list[str], arrivals: Arrivals):
    parts = urlsplit(base_url)
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()

    async def main():
        tasks = [
            asyncio.create_task(_hold(parts.hostname, parts.port, key, arrivals, stop))
            for key in keys
        ]
        await asyncio.gather(*tasks, return_exceptions=True)

    threading.Thread(target=loop.run_until_complete, args=(main(),), daemon=True).start()
    return lambda: loop.call_soon_threadsafe(stop.set)


def _sign_up(http: Connection, prefix: str) -> dict:
    name = f"{prefix}_{secrets.token_hex(5)}"
    status, made = http.call("POST", "/v1/accounts", {"name": name, "bot": True})
    if status != 201:
        raise RuntimeError(f"sign-up refused: {status} {made}")
    return made


def measure(base_url: str) -> dict:
    http = Connection(base_url)
    targets = [_sign_up(http, "target") for _ in range(TARGETS)]
    challengers = [_sign_up(http, "challenger") for _ in range(CHALLENGERS)]
    arrivals = Arrivals()
    stop = _streams(base_url, [t["key"] for t in targets], arrivals)
    while arrivals.open < TARGETS:
        time.sleep(0.05)
    time.sleep(1.0)  # every stream has caught up and waits
    samples, lost = [], 0
    for n in range(SAMPLES):
        challenger = challengers[n % CHALLENGERS]
        auth = {"Authorization": f"Bearer {challenger['key']}"}
        body = {"game": "keltis-card", "opponents": [{"account": targets[n % TARGETS]["name"]}]}
        sent = time.perf_counter()
        status, made = http.call("POST", "/v1/challenges", body, headers=auth)
        if status != 201:
            lost += 1
            continue
        arrived = arrivals.wait_for(made["id"], 0)
        if arrived is None:
            lost += 1
        else:
            samples.append((arrived - sent) * 1000)
        http.call("POST", f"/v1/challenges/{made['id']}/cancel", headers=auth)
    stop()
    samples.sort()
    return {
        "p50": statistics.median(samples),
        "p99": samples[max(0, int(len(samples) * 0.99) - 1)],
        "samples": len(samples),
        "lost": lost,
    }


def run() -> None:
    with served_stack() as stack:
        figures = measure(stack.base_url)
    print(f"challenge_roundtrip_p50_ms: {figures['p50']:.2f}")
    print(f"challenge_roundtrip_ms: {figures['p99']:.2f}")
    print(f"challenge_samples: {figures['samples']}")
    print(f"challenge_lines_missing: {figures['lost']}")


if __name__ == "__main__":
    run()
