"""Side-channel benchmark: can a forged token tell the cards in a hand by timing?

The probe: against the served stack, a forged token of the seat to move
(`<game>.<seat>.<garbage>`) posts `{"action": "discard", "card": C}` for every card name,
round after round. Cards in that seat's hand would be legal moves, the others illegal; if
the server decided anything for an unverified seat, the legal ones would answer slower.
Prints `forged_token_timing_gap_ms` (median answer time of forged legal minus forged
illegal moves; no signal is about 0, well below the spread of one request) and the
statuses seen (all 401).
"""

from __future__ import annotations

import secrets
import statistics
import time

from bench.api import Connection, served_stack
from domain.card.cards import NAMES

ROUNDS = 12


def measure_gap(base_url: str, rounds: int = ROUNDS) -> dict:
    """Median forged-legal minus forged-illegal answer time (ms), and the statuses seen."""
    http = Connection(base_url)
    players = [{"name": "ann"}, {"name": "bea"}]
    _, created = http.call("POST", "/v1/games", {"game": "keltis-card", "players": players})
    game_id, seat = created["id"], created["to_move"]
    token = next(s["token"] for s in created["seats"] if s["seat"] == seat)
    _, game = http.call("GET", f"/v1/games/{game_id}", headers=_bearer(token))
    hand = set(game["view"]["hand"])
    forged = _bearer(f"{game_id}.{seat}.{secrets.token_urlsafe(24)}")
    timings: dict[bool, list[float]] = {True: [], False: []}
    statuses: set[int] = set()
    for _ in range(rounds):
        for name in NAMES:
            move = {"action": "discard", "card": name}
            started = time.perf_counter()
            status, _ = http.call("POST", f"/v1/games/{game_id}/moves", move, headers=forged)
            timings[name in hand].append((time.perf_counter() - started) * 1000)
            statuses.add(status)
    return {
        "gap_ms": statistics.median(timings[True]) - statistics.median(timings[False]),
        "spread_ms": statistics.pstdev(timings[False]),
        "statuses": sorted(statuses),
        "requests": sum(len(t) for t in timings.values()),
    }


def _bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def run() -> None:
    """Start the stack, probe, print `name: value` lines, stop everything."""
    with served_stack() as stack:
        found = measure_gap(stack.base_url)
    print(f"forged_token_timing_gap_ms: {found['gap_ms']:.3f}")
    print(f"forged_token_timing_spread_ms: {found['spread_ms']:.3f}")
    print(f"forged_token_statuses: {','.join(map(str, found['statuses']))}")
    print(f"forged_token_requests: {found['requests']}")


if __name__ == "__main__":
    run()
