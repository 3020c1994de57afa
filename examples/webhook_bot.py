"""A webhook bot: a small HTTP server the Keltis service POSTs each of its turns to.

    python examples/webhook_bot.py --server http://127.0.0.1:8000 --port 9101 --name hookbot

It signs up a bot account whose webhook is this server (POST /v1/accounts), then serves:
each turn arrives as `{"game", "game_type", "seat", "version", "deadline", "view",
"legal_moves"}` with `X-Keltis-Signature: sha256=<hex HMAC-SHA256 of the raw body under the
account's webhook_secret>`. A turn whose signature does not match is refused (401); any other
is answered `{"move": ...}`, one of its legal moves, well before the deadline. Seat the
account in a game with `{"account": "hookbot"}` and the service plays it through here.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import random
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import requests

MAX_TURN_BYTES = 1 << 20

Policy = Callable[[dict], dict]  # a turn -> one of its legal moves


def draw_from_deck_first(turn: dict) -> dict:
    """A simple policy: draw from the deck when drawing, otherwise any legal move."""
    moves = turn["legal_moves"]
    for move in moves:
        if move.get("action") == "draw" and move.get("source") == "deck":
            return move
    return random.choice(moves)


def signed(secret: str, body: bytes, header: str) -> bool:
    """Whether `header` is the signature of `body` under `secret` (constant-time compare)."""
    expected = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected.encode(), header.encode())


def make_server(
    secret: str, host: str = "127.0.0.1", port: int = 0, policy: Policy = draw_from_deck_first
) -> ThreadingHTTPServer:
    """The bot's server (not yet serving: call `serve_forever`); port 0 picks a free one."""

    class Turn(BaseHTTPRequestHandler):
        disable_nagle_algorithm = True

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            if not 0 < length <= MAX_TURN_BYTES:
                return self.answer(400, {"error": "a turn is a JSON body"})
            body = self.rfile.read(length)
            if not signed(secret, body, self.headers.get("X-Keltis-Signature", "")):
                return self.answer(401, {"error": "bad signature"})
            return self.answer(200, {"move": policy(json.loads(body))})

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
