"""gunicorn settings and server hooks of `keltis serve` (loaded with `--config
python:api.operations.gunicorn_hooks`).

`child_exit`: a web process that exited (restarted, or killed) no longer counts in the
`livesum` gauges of the multiprocess metrics (open streams, long polls); its counters and
histograms stay summed, as Prometheus expects of counters.

`post_fork`: what gunicorn itself refuses before the app sees a request (a request line
over the limit 414, conflicting length headers or a malformed line 400, too many or too
large headers 431) is answered in the API's one JSON error shape, not gunicorn's HTML page.

`post_worker_init`: a web process told to stop (SIGTERM) ends its open streams at once
(api.core.ndjson.end_all), so it stops within seconds, before `keltis serve` stops Redis,
rather than holding streams until gunicorn's graceful timeout.

`limit_request_line`: 64 KiB, so that a long query (a parameter given many times, say) is
answered by the app, which names what is wrong with it (400 invalid_query), and gunicorn's
414 is left for request lines no client of the API sends.

Loaded by gunicorn's master before its workers patch the standard library for gevent:
import nothing heavy here.
"""

from __future__ import annotations

import json

import settings

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"  # application.operations.metrics_scrape.MULTIPROC_ENV
REQUEST_LINE_LIMIT = 64 * 1024
MAX_MESSAGE_CHARS = 200  # gunicorn's message may quote the client's bytes: bounded
SERVER_ERROR_MESSAGE = "an unexpected error occurred"  # api.core.errors' answer to the same

limit_request_line = REQUEST_LINE_LIMIT  # a gunicorn setting, read from this module


def child_exit(server, worker) -> None:
    """gunicorn calls this in the master after a worker process exited."""
    if settings.current().prometheus_multiproc_dir:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)


def post_fork(server, worker) -> None:
    """gunicorn calls this in each new worker process: its own refusals become JSON, and
    the request-line limit may exceed gunicorn's built-in cap of 8190 bytes."""
    from gunicorn import util
    from gunicorn.http import message

    message.MAX_REQUEST_LINE = max(message.MAX_REQUEST_LINE, REQUEST_LINE_LIMIT)
    util.write_error = write_json_error


def post_worker_init(worker) -> None:
    """gunicorn calls this in each worker once its app is loaded: on SIGTERM the worker
    stops accepting (gunicorn's own handler) and its streams end (api.core.ndjson.end_all)."""
    import signal

    import gevent

    from api.core import ndjson as streams

    def stop(signum, frame) -> None:
        worker.handle_exit(signum, frame)
        gevent.spawn(streams.end_all, lambda found: gevent.killall(found, block=False))

    signal.signal(signal.SIGTERM, stop)


def error_document(status: int, reason: str, message: str) -> bytes:
    """The HTTP/1.1 answer (Connection: close) of one of gunicorn's own refusals."""
    if status >= 500:
        code, message = "internal_error", SERVER_ERROR_MESSAGE
    else:
        code = "_".join(reason.lower().split()) or "bad_request"
        message = (message or reason)[:MAX_MESSAGE_CHARS]
    body = json.dumps(
        {"error": {"code": code, "message": message, "rule": None}}, separators=(",", ":")
    ).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


def write_json_error(sock, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn.util.write_error's signature, writing the JSON error shape."""
    from gunicorn import util

    util.write_nonblock(sock, error_document(status_int, reason, mesg))
