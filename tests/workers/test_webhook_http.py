"""The bounded webhook POST (application.webhooks.delivery) against raw sockets on 127.0.0.1:
answers without a Content-Length are cut at 64 KiB, a slow body stops at the deadline, and
the connection goes to the checked address."""

from __future__ import annotations

import contextlib
import socket
import threading
import time

import pytest

from application.webhooks.delivery import MAX_BODY_BYTES, Unreachable, WebhookFailure, post
from application.webhooks.policy import Target


def read_request(connection: socket.socket) -> bytes:
    """One request, headers and its Content-Length of body."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += connection.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":")[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        body += connection.recv(65536)
    return head + b"\r\n\r\n" + body


def serve_once(answer) -> tuple[int, list[bytes]]:
    """A one-connection server: reads the request, then `answer(connection)`; its port and
    the requests it read."""
    listener = socket.create_server(("127.0.0.1", 0))
    seen: list[bytes] = []

    def run() -> None:
        connection, _ = listener.accept()
        with connection, listener, contextlib.suppress(OSError):  # OSError: caller gave up
            seen.append(read_request(connection))
            answer(connection)

    threading.Thread(target=run, daemon=True).start()
    return listener.getsockname()[1], seen


def target(port: int, host: str = "bot.example") -> Target:
    return Target("http", host, port, "127.0.0.1", "/move?x=1")


def test_an_answer_without_length_is_cut_past_64_kib():
    def answer(connection):
        connection.sendall(b"HTTP/1.0 200 OK\r\n\r\n" + b"x" * (MAX_BODY_BYTES + 10_000))

    port, _ = serve_once(answer)
    with pytest.raises(WebhookFailure) as failure:
        post(target(port), b"{}", {}, time.time() + 5)
    assert failure.value.reason == "too_large"


def test_a_body_that_drips_past_the_deadline_stops_there():
    def answer(connection):
        connection.sendall(b"HTTP/1.0 200 OK\r\n\r\n{")
        for _ in range(400):  # 20 s of drip
            time.sleep(0.05)
            connection.sendall(b" ")

    port, _ = serve_once(answer)
    started = time.monotonic()
    with pytest.raises(WebhookFailure) as failure:
        post(target(port), b"{}", {}, time.time() + 0.5)
    assert failure.value.reason == "deadline"
    assert time.monotonic() - started < 10.0  # at the 0.5 s deadline, not the drip's end


def test_the_call_goes_to_the_checked_address_with_the_urls_host():
    def answer(connection):
        connection.sendall(b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n{}")

    port, seen = serve_once(answer)
    assert post(target(port), b'{"a": 1}', {"X-Test": "1"}, time.time() + 5) == b"{}"
    request = seen[0].decode()
    assert request.startswith("POST /move?x=1 HTTP/1.1\r\n")
    assert f"Host: bot.example:{port}\r\n" in request and request.endswith('{"a": 1}')


def test_nothing_listening_is_unreachable():
    # Bound but never listening: a connection is refused, and while the socket holds the
    # port no other process can listen on it (a port closed again could be taken at once).
    with socket.socket() as bound:
        bound.bind(("127.0.0.1", 0))
        with pytest.raises(Unreachable):
            post(target(bound.getsockname()[1]), b"{}", {}, time.time() + 5)
