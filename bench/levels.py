"""Calibrate the levels (`level:1`..`level:5`, domain.levels) on the ladder by self-play.

Every pair of levels plays LEVELS_DEALS fixed deals (seeded, the same for every pair) from
both seats (2 players: each deal twice, seats swapped); the games are rated in a fixed order
with the ladder's own rating (ladder.fold: openskill Plackett-Luce). Figures:
`level_rating_<game>_<n> mu (sigma, games)`. Only with LEVELS_WRITE=1 are the ratings and
the games they rest on written to application/levels_calibration.json (the file the service
ships); otherwise, as under `make bench`, the figures are printed and the file is left alone.

    LEVELS_DEALS=2 LEVELS_GAMES=keltis-card,keltis-dice python -m bench levels   # print
    LEVELS_WRITE=1 LEVELS_DEALS=2 python -m bench levels                         # and write

A write keeps the entries of the games the run did not play (LEVELS_GAMES=keltis-dice
recalibrates the dice levels alone).

LEVELS_PROCS (1) plays that many games at once, each in its own process.

Level 5 searches for a CPU budget per move (`mcts`), so its strength depends on the
machine's load only through the CPU time per move, not the wall time.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import time
from concurrent.futures import ProcessPoolExecutor

from application.levels import DATA_PATH
from domain.levels import level_names, recipes
from domain.playout import play_game
from domain.ranking import ranks
from domain.registry import get_rules
from ladder.entries import LadderEntry, LadderSeat
from ladder.fold import fold

DEALS = int(os.environ.get("LEVELS_DEALS", "2"))
PROCS = int(os.environ.get("LEVELS_PROCS", "1"))  # games at once, each in its own process
GAMES = [g for g in os.environ.get("LEVELS_GAMES", "keltis-card,keltis-dice").split(",") if g]
OPTIONS = {"keltis-card": lambda deal: {}, "keltis-dice": lambda deal: {"board": "basic"}}


def write_asked() -> bool:
    """Whether this run writes the shipped data file (LEVELS_WRITE=1), read when it runs."""
    return os.environ.get("LEVELS_WRITE", "0") == "1"


def deal_seed(game: str, deal: int) -> bytes:
    """The fixed seed of deal `deal` (the same for every pair of levels)."""
    return hashlib.sha256(f"bench-levels:{game}:{deal}".encode()).digest()


def schedule(deals: int) -> list[tuple[str, str, int]]:
    """(seat 0's level, seat 1's level, deal) of every game: each pair, each deal, both
    seatings, in a fixed order."""
    games = []
    for deal in range(deals):
        for a, b in itertools.combinations(level_names(), 2):
            games.append((a, b, deal))
            games.append((b, a, deal))
    return games


def play(game: str, seats: tuple[str, str], deal: int) -> dict:
    """One calibration game: its seats, deal and scores."""
    rules = get_rules(game)
    options = OPTIONS.get(game, lambda _: {})(deal)
    result = play_game(rules, list(seats), deal_seed(game, deal), deal, options).result
    return {"seats": list(seats), "deal": deal, "scores": list(result["scores"])}


def entry_of(game: str, number: int, played: dict) -> LadderEntry:
    """The ladder entry of one calibration game (every seat a bot)."""
    scores = played["scores"]
    placed = ranks(scores, [False] * len(scores))
    best = max(scores)
    seats = tuple(
        LadderSeat(name, True, score, rank, score == best, False)
        for name, score, rank in zip(played["seats"], scores, placed, strict=True)
    )
    return LadderEntry(f"levels-{number}", game, number, seats)


def calibrate(game: str, deals: int) -> dict:
    """Play and rate every game of the schedule; each level's rating and the games."""
    games = schedule(deals)
    if PROCS > 1:  # the same games, rated in the same order (level 5's budget is CPU time)
        with ProcessPoolExecutor(PROCS) as pool:
            seats = [(a, b) for a, b, _ in games]
            deals_of = [deal for _, _, deal in games]
            played = list(pool.map(play, [game] * len(games), seats, deals_of))
    else:
        played = [play(game, (a, b), deal) for a, b, deal in games]
    ratings, _ = fold(entry_of(game, n, p) for n, p in enumerate(played))
    rows = {}
    for name in level_names():
        rating = ratings[(game, f"bot:{name}")]
        rows[name] = {
            "mu": round(rating.mu, 3),
            "sigma": round(rating.sigma, 3),
            "games": rating.games,
        }
    return {"levels": rows, "games": played}


def shipped_data() -> dict:
    """The data file as shipped (every game's ratings, the games they rest on, its recipes
    and the run that made them), so that a run of some games keeps the others'."""
    found = json.loads(DATA_PATH.read_text()) if DATA_PATH.exists() else {}
    return {part: dict(found.get(part) or {}) for part in ("games", "played", "recipes", "runs")}


def run() -> None:
    """Calibrate each game of LEVELS_GAMES; print the figures, and write them into the data
    file when LEVELS_WRITE=1 (the other games' entries are kept)."""
    data = (
        shipped_data() if write_asked() else {"games": {}, "played": {}, "recipes": {}, "runs": {}}
    )
    for game in GAMES:
        started = time.monotonic()
        found = calibrate(game, DEALS)
        data["games"][game] = found["levels"]
        data["played"][game] = found["games"]
        data["recipes"][game] = {f"level:{level}": name for level, name in recipes(game).items()}
        data["runs"][game] = {
            "command": f"LEVELS_WRITE=1 LEVELS_DEALS={DEALS} LEVELS_GAMES={game} "
            "python -m bench levels",
            "deals": DEALS,
        }
        elapsed = time.monotonic() - started
        for name, row in found["levels"].items():
            print(
                f"level_rating_{game}_{name.split(':')[1]} {row['mu']:.2f} "
                f"(sigma {row['sigma']:.2f}, {row['games']} games, {DEALS} deals, "
                f"{elapsed:.0f} s for the game type)",
                flush=True,
            )
    if write_asked():
        DATA_PATH.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        print(f"# wrote {DATA_PATH}", flush=True)


if __name__ == "__main__":
    run()
