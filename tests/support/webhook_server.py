"""A webhook bot's server for tests: threaded http.server on 127.0.0.1 that checks the
signature (`t=...,v1=...`: HMAC-SHA256 over the timestamp and the raw body, compared in
constant time, application.bots.webhook_turns.verify), records every call and turn it was sent, and
answers as its `behaviour` says. With `tls` (a server-side ssl.SSLContext) it serves HTTPS,
and its URL names `host` (bound to the first address `host` resolves to). Tarpit: a webhook
that never answers."""

from __future__ import annotations

import contextlib
import json
import socket
import ssl
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from application.bots.webhook_turns import verify

# behaviour(turn) -> (status, headers, body bytes)
Behaviour = Callable[[dict], tuple[int, dict, bytes]]


def first_legal(turn: dict) -> tuple[int, dict, bytes]:
    """Answer the first legal move."""
    return (
        200,
        {"Content-Type": "application/json"},
        json.dumps({"move": turn["legal_moves"][0]}).encode(),
    )


class WebhookServer:
    """Start with `start()`, stop with `close()`; `url` is where it listens."""

    def __init__(
        self,
        behaviour: Behaviour = first_legal,
        tls: ssl.SSLContext | None = None,
        host: str = "127.0.0.1",
    ):
        self.behaviour = behaviour
        self.secret: str | None = None
        self.turns: list[dict] = []
        self.calls: list[tuple[bytes, str]] = []  # (raw body, signature header) of each call
        self.bad_signatures = 0
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            disable_nagle_algorithm = True

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with server.lock:
                    server.calls.append((raw, self.headers.get("X-Keltis-Signature", "")))
                if not server.signed(raw, self.headers.get("X-Keltis-Signature", "")):
                    with server.lock:
                        server.bad_signatures += 1
                    self.send_response(401)
                    self.end_headers()
                    return
                turn = json.loads(raw)
                with server.lock:
                    server.turns.append(turn)
                status, headers, body = server.behaviour(turn)
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                with contextlib.suppress(OSError):  # the caller gave up (deadline)
                    self.wfile.write(body)

            def log_message(self, *args) -> None:
                pass

        family, *_, address = socket.getaddrinfo(host, 0, type=socket.SOCK_STREAM)[0]
        server_class = type("Server", (ThreadingHTTPServer,), {"address_family": family})
        self.httpd = server_class((address[0], 0), Handler)
        self.httpd.daemon_threads = True
        if tls is not None:  # the handshake runs in the request's own thread
            self.httpd.socket = tls.wrap_socket(
                self.httpd.socket, server_side=True, do_handshake_on_connect=False
            )
        scheme = "https" if tls is not None else "http"
        shown = f"[{host}]" if ":" in host else host
        self.url = f"{scheme}://{shown}:{self.httpd.server_address[1]}/move"

    def signed(self, raw: bytes, header: str) -> bool:
        if self.secret is None:
            return False
        return verify(self.secret, raw, header, time.time())

    def start(self) -> WebhookServer:
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class Tarpit:
    """A webhook that accepts every connection on 127.0.0.1 and never answers (it holds
    them until `close()`); `connections` counts the connections accepted."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0), backlog=1024)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/move"
        self.held: list[socket.socket] = []
        self.connections = 0
        self.lock = threading.Lock()

    def start(self) -> Tarpit:
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def _accept(self) -> None:
        with contextlib.suppress(OSError):  # closed
            while True:
                connection, _ = self.listener.accept()
                with self.lock:
                    self.held.append(connection)
                    self.connections += 1

    def close(self) -> None:
        with contextlib.suppress(OSError):  # wakes the accepting thread
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        with self.lock:
            for connection in self.held:
                connection.close()
