"""A webhook bot's server: the service POSTs each turn (and each challenge) here, signed.

Each call carries `X-Keltis-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>." + the
raw body under the account's webhook secret>`. A call whose signature does not match, whose
timestamp is more than `TOLERANCE_S` off, or that repeats a signature already seen (a replay)
is refused (401). A turn (`"type": "turn"`, or no type) is answered `{"move": ...}` by
`choose(view, legal_moves)`, a repeat of a turn (the same `turn` id, called again after a
slow or failed call) with the move already chosen; a challenge (`"type": "challenge"`) by
`accept(challenge)`: `{"accept": true}` or `{"decline": "<reason>"}`; a probe of the rated
pool (`"type": "ping"`) by `{}`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from keltis_client.runner import Accept, Choose
from keltis_client.types import DECLINE_REASONS

log = logging.getLogger("keltis_client.webhook")
MAX_BODY_BYTES = 1 << 20
TOLERANCE_S = 300  # a signature's timestamp may be this far off our clock


def signature(secret: str | bytes, body: bytes, at: int) -> str:
    """The header value the service sends for `body` at unix time `at`."""
    key = secret.encode() if isinstance(secret, str) else secret
    mac = hmac.new(key, f"{at}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={at},v1={mac}"


class Verifier:
    """Checks signatures, refuses stale timestamps and replays, and remembers the move of
    each turn for as long as a signature of it may be valid."""

    def __init__(self, secret: str, clock: Callable[[], float] = time.time):
        self.secret, self.clock = secret.encode(), clock
        self.seen: dict[str, float] = {}  # signature -> its timestamp
        self.moves: dict[str, tuple[float, Any]] = {}  # turn id -> (when, move)
        self.lock = threading.Lock()

    def check(self, body: bytes, header: str) -> str | None:
        """Why the call is refused, or None when it is fresh, signed and not a replay."""
        fields = dict(part.split("=", 1) for part in header.split(",") if "=" in part)
        stamp, given = fields.get("t", ""), fields.get("v1", "")
        signed = stamp.encode() + b"." + body
        expected = hmac.new(self.secret, signed, hashlib.sha256).hexdigest()
        if not stamp.isdigit() or not hmac.compare_digest(expected, given):
            return "bad signature"
        now = self.clock()
        if abs(now - int(stamp)) > TOLERANCE_S:
            return "stale timestamp"
        with self.lock:
            self._forget(now)
            if given in self.seen:
                return "replayed"
            self.seen[given] = int(stamp)
        return None

    def move(self, turn: dict, decide: Callable[[dict], Any]) -> Any:
        """The move of a turn: the one already chosen when the turn is a repeat."""
        with self.lock:
            known = self.moves.get(turn.get("turn"))
        if known is not None:
            return known[1]
        move = decide(turn)
        with self.lock:
            self.moves[turn.get("turn")] = (self.clock(), move)
        return move

    def _forget(self, now: float) -> None:
        for seen, stamp in list(self.seen.items()):
            if now - stamp > 2 * TOLERANCE_S:
                del self.seen[seen]
        for turn, (when, _) in list(self.moves.items()):
            if now - when > 2 * TOLERANCE_S:
                del self.moves[turn]


def answer_challenge(challenge: dict, accept: Accept | None) -> dict:
    """`{"accept": true}` or `{"decline": reason}` by the policy (none: decline, generic)."""
    verdict = accept(challenge) if accept is not None else "generic"
    if verdict is True:
        return {"accept": True}
    return {
        "decline": verdict if isinstance(verdict, str) and verdict in DECLINE_REASONS else "generic"
    }


def make_server(
    secret: str,
    choose: Choose,
    accept: Accept | None = None,
    host: str = "127.0.0.1",
    port: int = 0,
    clock: Callable[[], float] = time.time,
) -> ThreadingHTTPServer:
    """The bot's server (not yet serving: call `serve_forever`); port 0 picks a free one."""
    verifier = Verifier(secret, clock)

    def decide(turn: dict) -> Any:
        return choose(turn["view"], turn["legal_moves"])

    class Calls(BaseHTTPRequestHandler):
        disable_nagle_algorithm = True

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            if not 0 < length <= MAX_BODY_BYTES:
                return self.answer(400, {"error": "a call is a JSON body"})
            body = self.rfile.read(length)
            refused = verifier.check(body, self.headers.get("X-Keltis-Signature", ""))
            if refused:
                log.warning("call refused: %s", refused)
                return self.answer(401, {"error": refused})
            call = json.loads(body)
            if call.get("type") == "ping":  # the pool's liveness probe: any 2xx answers
                return self.answer(200, {})
            if call.get("type") == "challenge":
                return self.answer(200, answer_challenge(call.get("challenge") or {}, accept))
            return self.answer(200, {"move": verifier.move(call, decide)})

        def answer(self, status: int, data: dict) -> None:
            raw = json.dumps(data).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer((host, port), Calls)
    server.daemon_threads = True
    return server
