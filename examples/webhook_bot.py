"""A webhook bot: a small HTTP server the Keltis service POSTs each of its turns to.

    python examples/webhook_bot.py --server http://127.0.0.1:8000 --port 9101 --name hookbot

It signs up a bot account whose webhook is this server (POST /v1/accounts), then serves:
each turn arrives as `{"turn", "attempt", "game", "game_type", "seat", "version",
"deadline", "view", "legal_moves"}` with `X-Keltis-Signature: t=<unix seconds>,v1=<hex
HMAC-SHA256 of "<t>." + the raw body under the account's webhook_secret>`. A call whose
signature does not match, whose timestamp is more than 5 minutes off, or that repeats a
signature already seen (a replay) is refused (401); a repeat of a turn (same `turn`, a new
call after a slow or failed one) gets the move already chosen; any other turn is answered
`{"move": ...}`, one of its legal moves. Seat the account in a game with
`{"account": "hookbot"}` and the service plays it through here.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import random
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import requests

MAX_TURN_BYTES = 1 << 20
TOLERANCE_S = 300  # a signature's timestamp may be this far off our clock

Policy = Callable[[dict], dict]  # a turn -> one of its legal moves


def draw_from_deck_first(turn: dict) -> dict:
    """A simple policy: draw from the deck when drawing, otherwise any legal move."""
    moves = turn["legal_moves"]
    for move in moves:
        if move.get("action") == "draw" and move.get("source") == "deck":
            return move
    return random.choice(moves)


class Verifier:
    """Checks signatures, refuses stale timestamps and replays, and remembers the move of
    each turn for as long as a signature of it may be valid."""

    def __init__(self, secret: str, clock: Callable[[], float] = time.time):
        self.secret, self.clock = secret.encode(), clock
        self.seen: dict[str, float] = {}  # signature -> its timestamp
        self.moves: dict[str, tuple[float, dict]] = {}  # turn id -> (when, move)
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

    def move(self, turn: dict, policy: Policy) -> dict:
        """The move of a turn: the one already chosen when the turn is a repeat."""
        with self.lock:
            known = self.moves.get(turn.get("turn"))
        if known is not None:
            return known[1]
        move = policy(turn)
        with self.lock:
            self.moves[turn.get("turn")] = (self.clock(), move)
        return move

    def _forget(self, now: float) -> None:
        for signature, stamp in list(self.seen.items()):
            if now - stamp > 2 * TOLERANCE_S:
                del self.seen[signature]
        for turn, (when, _) in list(self.moves.items()):
            if now - when > 2 * TOLERANCE_S:
                del self.moves[turn]


def make_server(
    secret: str,
    host: str = "127.0.0.1",
    port: int = 0,
    policy: Policy = draw_from_deck_first,
    clock: Callable[[], float] = time.time,
) -> ThreadingHTTPServer:
    """The bot's server (not yet serving: call `serve_forever`); port 0 picks a free one."""
    verifier = Verifier(secret, clock)

    class Turn(BaseHTTPRequestHandler):
        disable_nagle_algorithm = True

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            if not 0 < length <= MAX_TURN_BYTES:
                return self.answer(400, {"error": "a turn is a JSON body"})
            body = self.rfile.read(length)
            refused = verifier.check(body, self.headers.get("X-Keltis-Signature", ""))
            if refused:
                return self.answer(401, {"error": refused})
            return self.answer(200, {"move": verifier.move(json.loads(body), policy)})

        def answer(self, status: int, data: dict) -> None:
            raw = json.dumps(data).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer((host, port), Turn)
    server.daemon_threads = True
    return server


def sign_up(base_url: str, name: str, webhook: str, session=None) -> dict:
    """Create a bot account with this webhook: `{"name", "key", "webhook_secret", ...}`."""
    http = session or requests.Session()
    answer = http.post(
        f"{base_url}/v1/accounts", json={"name": name, "bot": True, "webhook": webhook}
    )
    answer.raise_for_status()
    return answer.json()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=9101)
    parser.add_argument("--name", default="hookbot")
    args = parser.parse_args()
    account = sign_up(args.server, args.name, f"http://{args.host}:{args.port}/move")
    server = make_server(account["webhook_secret"], args.host, args.port)
    print(f"account {account['name']} (key {account['key']}) serving on port {args.port}")
    server.serve_forever()


if __name__ == "__main__":
    main()
