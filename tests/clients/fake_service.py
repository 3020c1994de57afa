"""A fake of the service's account-facing endpoints, for the parts of the bot kit that code
against the agreed shapes (challenges, seeks) and for the runner's edge cases: the
test pushes event-stream lines and reads what the runner called."""

from __future__ import annotations

import json
import queue
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

END = object()  # pushed: the server ends the open stream


class FakeService:
    """Serves on 127.0.0.1; `push(line)` sends a stream line, `calls` lists (method, path,
    body) of everything else, `games[id]` is `{"version", "moves", "status"}`, `seeks`
    the account's seeks, `move_answers` statuses the next move POSTs answer."""

    def __init__(self, name: str = "fakebot", seeks_served: bool = True):
        self.name = name
        self.lines: queue.Queue = queue.Queue()
        self.calls: list[tuple[str, str, Any]] = []
        self.games: dict[str, dict] = {}
        self.seeks: list[dict] = []
        self.seeks_served = seeks_served
        self.move_answers: list[int] = []
        self.stream_status = 200
        self.streams_opened = 0
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def push(self, line: Any) -> None:
        self.lines.put(line)

    def called(self, method: str, pattern: str) -> list[Any]:
        with self.lock:
            return [b for m, p, b in self.calls if m == method and re.fullmatch(pattern, p)]

    def close(self) -> None:
        self.push(END)
        self.server.shutdown()
        self.server.server_close()

    def answer(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        with self.lock:
            self.calls.append((method, path, body))
        if path == "/v1/me":
            return 200, {"name": self.name, "bot": True, "webhook": None}
        if match := re.fullmatch(r"/v1/challenges/([^/]+)/(accept|decline|cancel)", path):
            return 200, {"id": match[1], "status": f"{match[2]}ed"}
        if path.startswith("/v1/seeks"):
            return self._seek(method, path, body)
        if match := re.fullmatch(r"/v1/games/([^/]+)(/moves)?", path):
            game = self.games[match[1]]
            if method == "GET" and match[2]:
                return 200, {"version": game["version"], "seat": 0, "moves": game["moves"]}
            if method == "GET":
                view = {"game": "keltis-card"}
                return 200, {
                    "id": match[1],
                    "status": game["status"],
                    "version": game["version"],
                    "view": view,
                }
            status = self.move_answers.pop(0) if self.move_answers else 200
            if status == 409:
                error = {"code": "version_conflict", "message": "the game has moved on"}
                return 409, {
                    "error": {**error, "rule": None, "current_version": game["version"] + 1}
                }
            return 200, {"version": body["expected_version"] + 1}
        return 404, {"error": {"code": "not_found", "message": path, "rule": None}}

    def _seek(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        if not self.seeks_served:
            return 404, {"error": {"code": "not_found", "message": "no seeks", "rule": None}}
        with self.lock:
            if method == "GET":
                return 200, {"seeks": list(self.seeks)}
            if method == "POST":
                seek = {"id": f"s{len(self.calls)}", "status": "open", "games": [], **body}
                self.seeks.append(seek)
                return 201, seek
            self.seeks = [s for s in self.seeks if path != f"/v1/seeks/{s['id']}"]
            return 204, None

    def _handler(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # the stream is chunked, as the service's is

            def do_GET(self) -> None:
                if self.path == "/v1/me/events":
                    return self.stream()
                self.reply(*fake.answer("GET", self.path, None))

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length)) if length else None
                self.reply(*fake.answer("POST", self.path, body))

            def do_DELETE(self) -> None:
                self.reply(*fake.answer("DELETE", self.path, None))

            def stream(self) -> None:
                if fake.stream_status != 200:
                    error = {"code": "unauthenticated", "message": "bad key", "rule": None}
                    return self.reply(fake.stream_status, {"error": error})
                fake.streams_opened += 1
                self.send_response(200)
                self.send_header("Content-Type", "application/x-ndjson")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                self.close_connection = True
                while True:
                    line = fake.lines.get()
                    raw = b"" if line is END else b"\n"
                    if line is not END and line is not None:
                        raw = json.dumps(line).encode() + b"\n"
                    try:
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(raw), raw))
                        self.wfile.flush()
                    except OSError:
                        return
                    if line is END:
                        return

            def reply(self, status: int, data: Any) -> None:
                raw = b"" if data is None else json.dumps(data).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args: Any) -> None:
                pass

        return Handler
