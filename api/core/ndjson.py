"""Held NDJSON answers (the live streams, the exports, the arenas' and tournaments' streams):
one JSON line per item (bytes pass as they are: lines encoded once for many streams), a blank
line as a keep-alive, its hold's leases renewed while it sends (the process renews them all
together, application.live.holds) and released however the stream ends. A web process that
shuts down ends its streams at once (`end_all`, from api.operations.gunicorn_hooks); one
whose client hung up ends the same way (api.core.hangup)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import orjson
from flask import current_app, request
from greenlet import GreenletExit, getcurrent

from api.core import hangup
from application.live import streams
from application.live.holds import Hold
from application.metrics import counters as metrics

NDJSON = "application/x-ndjson"
SENDING: set = set()  # the greenlets sending a stream now (`end_all` ends them)


def end_all(kill) -> None:
    """End every stream this process is sending: `kill(greenlets)` raises GreenletExit in
    each (gevent.killall), which the stream takes as its end (`ndjson`)."""
    if SENDING:
        kill(list(SENDING))


def stream_settings() -> streams.StreamSettings:
    config = current_app.config
    return streams.StreamSettings(
        keepalive_s=config["STREAM_KEEPALIVE_S"], max_s=config["STREAM_MAX_S"]
    )


def encode(lines: Iterable[dict]) -> bytes:
    """NDJSON lines as the stream sends them."""
    return b"".join(orjson.dumps(line) + b"\n" for line in lines)


def ndjson(lines: Iterable[dict | bytes | None], hold: Hold | None = None):
    """The streamed response; `hold` (a held stream's slots, api.core.holds) is renewed while
    the stream sends and released when it ends, however it ends (also when it never
    started)."""

    kind = request.endpoint or "stream"
    sock = request.environ.get(hangup.SOCKET_KEY)

    def body() -> Iterator[bytes]:
        gauge = metrics.stream_opened(kind)
        sender = getcurrent()
        SENDING.add(sender)
        unwatch = hangup.watch(sock, sender)
        try:
            if hold is not None:
                hold.renew()
            for line in lines:
                if line is None:
                    yield b"\n"
                elif isinstance(line, bytes):
                    if line:
                        yield line
                else:
                    yield orjson.dumps(line) + b"\n"
                line = None  # a held stream keeps no line while it waits for the next
        except GreenletExit:  # the process shuts down (end_all): the stream ends here
            return
        finally:
            unwatch()
            SENDING.discard(sender)
            gauge.dec()
            if hold is not None:
                hold.release()

    try:
        response = current_app.response_class(body(), mimetype=NDJSON)
    except BaseException:
        if hold is not None:
            hold.release()
        raise
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # a proxy in front must not buffer lines
    if hold is not None:
        response.call_on_close(hold.release)
    return response
