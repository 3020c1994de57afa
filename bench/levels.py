"""Calibrate the levels (`level:1`..`level:5`, domain.levels) on the ladder by self-play.

Every pair of levels plays LEVELS_DEALS fixed deals (seeded, the same for every pair) from
both seats (2 players: each deal twice, seats swapped); the games are rated with the
ladder's own rating (ladder.fold: openskill Plackett-Luce), which folds games one after
another and so weighs the last ones most: a level's rating is its mean over LEVELS_ORDERS
(100) fixed shuffles of the games' order, so that every game counts alike. Figures:
`level_rating_<game>_<n> mu (sigma, games)`. Only with LEVELS_WRITE=1 are the ratings and
the games they rest on written to application/ladder/levels_calibration.json (the file the service
ships); otherwise, as under `make bench`, the figures are printed and the file is left alone.

    LEVELS_DEALS=2 LEVELS_GAMES=keltis-card,keltis-dice python -m bench levels   # print
    LEVELS_WRITE=1 LEVELS_DEALS=2 python -m bench levels                         # and write

A write keeps the entries of the games the run did not play (LEVELS_GAMES=keltis-dice
recalibrates the dice levels alone). LEVELS_RERATE=1 plays nothing: it rates again the games
the shipped file holds (after a change of the rating, not of the bots).

LEVELS_PROCS (1) plays that many games at once, each in its own process.

Level 5 searches for a CPU budget per move (`mcts`), so its strength depends on the
machine's load only through the CPU time per move, not the wall time.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor

from application.ladder.levels import DATA_PATH
from domain.levels import level_names, recipes
from domain.playout import play_game
from domain.ranking import ranks
from domain.registry import get_rules
from ladder.entries import LadderEntry, LadderSeat
from ladder.fold import fold

DEALS = int(os.environ.get("LEVELS_DEALS", "2"))
PROCS = int(os.environ.get("LEVELS_PROCS", "1"))  # games at once, each in its own process
ORDERS = int(os.environ.get("LEVELS_ORDERS", "100"))  # shuffles of the games' order rated
GAMES = [g for g in os.environ.get("LEVELS_GAMES", "keltis-card,keltis-dice").split(",") if g]
OPTIONS = {"keltis-card": lambda deal: {}, "keltis-dice": lambda deal: {"board": "basic"}}


def rerate_asked() -> bool:
    """Whether this run rates the shipped games again instead of playing (LEVELS_RERATE=1)."""
    return os.environ.get("LEVELS_RERATE", "0") == "1"


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
    if PROCS > 1:  # the same games as one process plays (level 5's budget is CPU time)
        with ProcessPoolExecutor(PROCS) as pool:
            seats = [(a, b) for a, b, _ in games]
            deals_of = [deal for _, _, deal in games]
            played = list(pool.map(play, [game] * len(games), seats, deals_of))
    else:
        played = [play(game, (a, b), deal) for a, b, deal in games]
    return {"levels": rate(game, played), "games": played}


def rate(game: str, played: list[dict], orders: int | None = None) -> dict:
    """Each level's rating on the ladder: mu and sigma averaged over `orders` (ORDERS) fixed
    shuffles of the games (a fold weighs its last games most; a mean over orders does not,
    and does not depend on the order `played` is in), and its number of games."""
    canonical = sorted(played, key=lambda p: json.dumps(p, sort_keys=True))
    sums = {name: [0.0, 0.0] for name in level_names()}
    counts: dict[str, int] = {}
    runs = orders or ORDERS
    for order in range(runs):
        games = list(canonical)
        random.Random(f"bench-levels-order:{order}").shuffle(games)
        ratings, _ = fold(entry_of(game, n, p) for n, p in enumerate(games))
        for name in level_names():
            rating = ratings[(game, f"bot:{name}")]
            sums[name][0] += rating.mu
            sums[name][1] += rating.sigma
            counts[name] = rating.games
    return {
        name: {
            "mu": round(mu / runs, 3),
            "sigma": round(sigma / runs, 3),
            "games": counts[name],
        }
        for name, (mu, sigma) in sums.items()
    }


def shipped_data() -> dict:
    """The data file as shipped (every game's ratings, the games they rest on, its recipes
    and the run that made them), so that a run of some games keeps the others'."""
    found = json.loads(DATA_PATH.read_text()) if DATA_PATH.exists() else {}
    return {part: dict(found.get(part) or {}) for part in ("games", "played", "recipes", "runs")}


def recipes_by_name(game: str) -> dict[str, str]:
    """Each level's bot name and the recipe it stands for in `game`, as the file records them."""
    return {f"level:{level}": name for level, name in recipes(game).items()}


def replayed(game: str, shipped: dict) -> dict:
    """The shipped games of `game` rated again (LEVELS_RERATE=1), when its recipes are still
    the ones they were played with."""
    if shipped["recipes"].get(game) != recipes_by_name(game) or not shipped["played"].get(game):
        raise SystemExit(f"bench levels: the shipped {game} games were not played by its recipes")
    return {"levels": rate(game, shipped["played"][game]), "games": shipped["played"][game]}


def run() -> None:
    """Calibrate each game of LEVELS_GAMES (or rate its shipped games again, LEVELS_RERATE=1);
    print the figures, and write them into the data file when LEVELS_WRITE=1 (the other
    games' entries are kept)."""
    shipped = shipped_data()
    data = shipped if write_asked() else {"games": {}, "played": {}, "recipes": {}, "runs": {}}
    for game in GAMES:
        started = time.monotonic()
        if rerate_asked():
            found = replayed(game, shipped)
            run_of = dict(shipped["runs"].get(game) or {})
        else:
            found = calibrate(game, DEALS)
            run_of = {
                "command": f"LEVELS_WRITE=1 LEVELS_DEALS={DEALS} LEVELS_GAMES={game} "
                "python -m bench levels",
                "deals": DEALS,
            }
        run_of["orders"] = ORDERS
        data["games"][game] = found["levels"]
        data["played"][game] = found["games"]
        data["recipes"][game] = recipes_by_name(game)
        data["runs"][game] = run_of
        elapsed = time.monotonic() - started
        for name, row in found["levels"].items():
            print(
                f"level_rating_{game}_{name.split(':')[1]} {row['mu']:.2f} "
                f"(sigma {row['sigma']:.2f}, {row['games']} games, {run_of.get('deals')} deals, "
                f"{ORDERS} orders, {elapsed:.0f} s for the game type)",
                flush=True,
            )
    if write_asked():
        DATA_PATH.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        print(f"# wrote {DATA_PATH}", flush=True)


if __name__ == "__main__":
    run()
