"""Webhook bots beside a tarpit: a well-behaved webhook bot's turn latency alone, and while
another account's tarpit URL (on 127.0.0.1: accepts TCP, never answers) holds 100 games with
a day-long clock. One worker (32 call threads), the stack as `make run` runs it.

A turn's latency runs from the commit that made it the bot's turn (its deadline minus the
move time: no bank) to the call reaching the bot's server. The well-behaved bots answer at
once; two of them play each other, so every turn of their games is a webhook call.

  webhook_p99_ms_beside_tarpit: goal within 2x of webhook_p99_ms_alone (before the per-call
  bound and the per-account share, the tarpit held every call thread for a day).
"""

from __future__ import annotations

import contextlib
import secrets
import socket
import statistics
import threading
import time

from bench.api import Connection, served_stack
from bench.figures import figure
from bench.webhooks import Bots, create_game

CARD = "keltis-card"
TARPIT_GAMES = 100
GOOD_GAMES = 4
SAMPLES = 500
MOVE_SECONDS = 3600
GOOD_CLOCK = {"move_seconds": MOVE_SECONDS, "bank_seconds": 0, "fallback": "random"}
DAY_CLOCK = {"move_seconds": 86400, "bank_seconds": 0, "fallback": "random"}
MAX_WAIT_S = 120
TARPIT_SHARE = 8  # the calls one account has in flight per worker (the default)


class Tarpit:
    """Accepts every connection and holds it unanswered."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0), backlog=1024)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/move"
        self.held: list[socket.socket] = []

    def start(self) -> Tarpit:
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def _accept(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                self.held.append(self.listener.accept()[0])

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        for connection in self.held:
            connection.close()


def create(http: Connection, players: list[dict], clock: dict, keys: dict[str, str]) -> str:
    body = {"game": CARD, "players": players, "clock": clock}
    status, created = create_game(http, body, keys)
    if status != 201:
        raise RuntimeError(f"could not create a game: {status} {created}")
    return created["id"]


def latencies(bots: Bots, games: set[str], count: int) -> list[float]:
    """The latencies (ms) of the first `count` calls of `games` (waits for them)."""
    end = time.monotonic() + MAX_WAIT_S
    while time.monotonic() < end:
        with bots.lock:
            found = [
                at - (turn["deadline"] - MOVE_SECONDS * 1000)
                for at, turn in bots.received
                if turn["game"] in games
            ]
        if len(found) >= count:
            return found[:count]
        time.sleep(0.1)
    raise RuntimeError(f"only {len(found)} of {count} webhook calls arrived in time")


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98]


def play(http: Connection, bots: Bots, players: list[dict]) -> list[float]:
    games = {create(http, players, GOOD_CLOCK, bots.keys) for _ in range(GOOD_GAMES)}
    return latencies(bots, games, SAMPLES)


def run() -> None:
    """Start the stack, a well-behaved webhook server and a tarpit; print the figures."""
    bots = Bots(delay_s=0)
    tarpit = Tarpit().start()
    threading.Thread(target=bots.httpd.serve_forever, daemon=True).start()
    try:
        with served_stack(bot_workers=1) as stack:
            http = Connection(stack.base_url)
            players = [{"account": bots.sign_up(http)}, {"account": bots.sign_up(http)}]
            alone = play(http, bots, players)
            name = f"tarpit{secrets.token_hex(4)}"
            body = {"name": name, "bot": True, "webhook": tarpit.url}
            status, created = http.call("POST", "/v1/accounts", body)
            if status != 201:
                raise RuntimeError(f"could not sign up the tarpit: {status} {created}")
            for _ in range(TARPIT_GAMES):
                create(
                    http, [{"account": name}, {"bot": "greedy"}], DAY_CLOCK, {name: created["key"]}
                )
            end = time.monotonic() + 60  # measure once its first calls were asked again
            while len(tarpit.held) <= TARPIT_SHARE and time.monotonic() < end:
                time.sleep(0.05)
            beside = play(http, bots, players)
            held = len(tarpit.held)
    finally:
        bots.httpd.shutdown()
        bots.httpd.server_close()
        tarpit.close()
    figure("webhook_p99_ms_alone", f"{p99(alone):.1f}", f"{len(alone)} turns, 1 worker")
    figure(
        "webhook_p99_ms_beside_tarpit",
        f"{p99(beside):.1f}",
        f"{len(beside)} turns while a tarpit account held {TARPIT_GAMES} games "
        f"({held} connections to it so far)",
    )
    figure("webhook_p99_ratio_beside_tarpit", f"{p99(beside) / p99(alone):.2f}", "goal <= 2")
    figure("webhook_p50_ms_alone", f"{statistics.median(alone):.1f}")
    figure("webhook_p50_ms_beside_tarpit", f"{statistics.median(beside):.1f}")


if __name__ == "__main__":
    run()
