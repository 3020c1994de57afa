"""Many simultaneous HTTP/1.1 requests to a loopback server, from one asyncio loop.

Each request opens its own connection (`Connection: close`), so N requests in flight are
N connections the server holds at once. A plain asyncio client keeps the generator cheap
on a machine whose cores it shares with the server. Used by `python -m bench load` and by
the load test of tests/reliability. `hold_streams` holds many streamed GETs open the same
way, for the stream benchmarks.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
CONNECT_TIMEOUT_S = 30.0


class NotLoopback(ValueError):
    """The load generator only talks to this machine."""


@dataclass(frozen=True)
class Request:
    """One request of a burst; `kind` names it in the results (healthz, game, poll, move)."""

    kind: str
    method: str
    path: str
    body: dict | None = None
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Result:
    """One answer: HTTP status (0: no answer; `body` then names the error), milliseconds
    from connect to last byte."""

    kind: str
    status: int
    elapsed_ms: float
    body: bytes = b""


def loopback_address(base_url: str) -> tuple[str, int]:
    """(host, port) of `base_url`; NotLoopback for any other machine."""
    parts = urlsplit(base_url)
    if parts.hostname not in LOOPBACK_HOSTS or parts.port is None:
        raise NotLoopback(f"{base_url} is not a loopback address with a port")
    return parts.hostname, parts.port


def encode(request: Request, host: str, port: int) -> bytes:
    """The request's bytes on the wire."""
    body = b"" if request.body is None else json.dumps(request.body).encode()
    headers = {"Host": f"{host}:{port}", "Connection": "close", **request.headers}
    if request.body is not None:
        headers["Content-Type"] = "application/json"
        headers["Content-Length"] = str(len(body))
    head = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    return f"{request.method} {request.path} HTTP/1.1\r\n{head}\r\n".encode() + body


def parse_status(raw: bytes) -> int:
    """The status code of a raw HTTP/1.1 answer (0 when there is none)."""
    line = raw.split(b"\r\n", 1)[0].split()
    return int(line[1]) if len(line) >= 2 and line[1].isdigit() else 0


def response_body(raw: bytes) -> bytes:
    """The body of a raw answer (the server closes the connection after it)."""
    return raw.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in raw else b""


async def send(host: str, port: int, request: Request, timeout_s: float) -> Result:
    """Send one request on a new connection; a failed or timed-out one has status 0."""
    started = time.perf_counter()
    writer = None
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port), CONNECT_TIMEOUT_S
        )
        writer.write(encode(request, host, port))
        await writer.drain()
        raw = await asyncio.wait_for(reader.read(), timeout_s)
        status = parse_status(raw)
        body = response_body(raw)
    except (OSError, TimeoutError) as error:
        status, body = 0, repr(error).encode()
    finally:
        if writer is not None:
            writer.close()
    return Result(request.kind, status, (time.perf_counter() - started) * 1000, body)


async def burst(base_url: str, requests: list[Request], timeout_s: float = 60.0) -> list[Result]:
    """All `requests` at once, each on its own connection; their results in order."""
    host, port = loopback_address(base_url)
    return list(await asyncio.gather(*(send(host, port, r, timeout_s) for r in requests)))


async def repeat(
    base_url: str, request: Request, clients: int, seconds: float, pause_s: float = 0.0
) -> list[Result]:
    """`clients` loops sending `request` one after another for `seconds`."""
    host, port = loopback_address(base_url)
    stop = time.monotonic() + seconds

    async def loop() -> list[Result]:
        results = []
        while time.monotonic() < stop:
            results.append(await send(host, port, request, timeout_s=seconds + 30))
            await asyncio.sleep(pause_s)
        return results

    loops = await asyncio.gather(*(loop() for _ in range(clients)))
    return [result for results in loops for result in results]


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (`share` in 0..1) of `values`; 0.0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(share * len(ordered))))
    return ordered[rank - 1]


class HeldStreams:
    """Streamed GETs held open by one asyncio loop in a daemon thread (`hold_streams`)."""

    def __init__(self):
        self.open = 0  # requests sent so far
        self.loop = asyncio.new_event_loop()
        self.stopping = asyncio.Event()

    def stop(self) -> None:
        """Close every stream at its next read."""
        self.loop.call_soon_threadsafe(self.stopping.set)

    async def hold(self, host: str, port: int, stream: tuple, pattern: re.Pattern, tail: int):
        path, headers, found = stream
        reader, writer = await asyncio.open_connection(host, port)
        lines = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n{lines}\r\n".encode())
        await writer.drain()
        self.open += 1
        buffer = b""
        try:
            while not self.stopping.is_set():
                chunk = await reader.read(65536)
                if not chunk:
                    return
                buffer += chunk
                for match in pattern.finditer(buffer):
                    found(match)
                buffer = buffer[-tail:]
        finally:
            writer.close()


def hold_streams(
    base_url: str,
    streams: list[tuple[str, dict[str, str], Callable[[re.Match], None]]],
    pattern: re.Pattern,
    tail: int,
) -> HeldStreams:
    """Open a GET of each (path, headers, found) at once and hold it: `found(match)` for
    every match of `pattern` in its bytes (the last `tail` bytes are read again with the
    next chunk, so a match split between reads is found, and may be found twice)."""
    host, port = loopback_address(base_url)
    held = HeldStreams()

    async def main():
        tasks = [
            asyncio.create_task(held.hold(host, port, stream, pattern, tail)) for stream in streams
        ]
        await asyncio.gather(*tasks, return_exceptions=True)

    thread = threading.Thread(target=held.loop.run_until_complete, args=(main(),), daemon=True)
    thread.start()
    return held
