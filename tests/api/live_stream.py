"""A stream of the test app (GET /v1/me/events, a game's /stream) read line by line as it
comes, for tests that act while a stream is open and then look for the line it tells.

A stream's first line goes out only after its opening look (its catch-up), so once
`LiveStream` has opened, whatever the test does next reaches the stream as a change; and the
test reads on until the line it waits for has come (bounded), not for a fixed window. Both
were guesses before (a sleep for the opening, STREAM_MAX_S for the window), which a loaded
machine can overrun.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import TypeVar

from flask.testing import FlaskClient

T = TypeVar("T")
WITHIN_S = 30.0  # a bound for a slow machine; a passing test waits only as long as it must


class LiveStream:
    """An open NDJSON stream of `app` at `path`: `lines` (None for a keep-alive) read so far."""

    def __init__(self, app, path: str, headers: dict | None = None, **request):
        """`request`: more of the test client's arguments (e.g. `environ_base`)."""
        # A plain test client: the contract-checking one reads a stream to its end at once.
        client = FlaskClient(app, app.response_class)
        self._response = client.get(path, headers=headers or {}, buffered=False, **request)
        assert self._response.status_code == 200, self._response.status
        self._chunks = iter(self._response.response)
        self.lines: list[dict | None] = []
        assert self._read(), "the stream ended before its first line"

    def _read(self) -> bool:
        """Read the next chunk into `lines`; False when the stream has ended."""
        chunk = next(self._chunks, None)
        if chunk is None:
            return False
        self.lines += [json.loads(raw) if raw.strip() else None for raw in chunk.splitlines()]
        return True

    def until(self, found: Callable[[list[dict | None]], T], within_s: float = WITHIN_S) -> T:
        """Read on until `found(lines)` is truthy, and give that value. The stream's
        keep-alives let the bound be checked; its STREAM_MAX_S must outlast the bound."""
        ends = time.monotonic() + within_s
        while not (value := found(self.lines)):
            assert time.monotonic() < ends, f"not within {within_s} s; read {self.lines}"
            assert self._read(), f"the stream ended first; read {self.lines}"
        return value

    def first(self, kind: str, within_s: float = WITHIN_S) -> dict:
        """The first line of type `kind`, read on until it has come."""
        return self.until(lambda lines: next(iter(typed(lines, kind)), None), within_s)

    def rest(self) -> list[dict | None]:
        """Read on to the stream's end (STREAM_MAX_S bounds it); every line read."""
        while self._read():
            pass
        return self.lines

    def close(self) -> None:
        self._response.close()

    def __enter__(self) -> LiveStream:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def typed(lines: list[dict | None], kind: str) -> list[dict]:
    """The lines of type `kind` (keep-alives skipped)."""
    return [line for line in lines if line and line["type"] == kind]
