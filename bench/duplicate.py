"""Duplicate benchmark: how much sharper "is greedy better than random?" gets with duplicate
deals, for the same number of games (in-process, `tournaments.local`; no Redis).

For each game (keltis-card, keltis-dice; 2 players) and each of ROUNDS seeds it plays two
tournaments of greedy against random with GAMES games each:
- `duplicate` (games_per_table = GAMES): GAMES / 2 deals, each played once per seat
  rotation; the pairs table's greedy - random interval is over deals;
- `round_robin` (games_per_table = GAMES): GAMES games with the seats alternating, each its
  own deal; the interval is over games.
Both widths come from the same code (`tournaments.standings.pairs`, a Student t 95%
interval of a mean), so the ratio compares like with like:

  duplicate_ci_ratio = mean duplicate width / mean round_robin width   (over ROUNDS seeds)

Below 1 means duplicate deals buy precision. Why it may not: per deal the seat luck cancels
(the difference in one game and in its rotation are negatively correlated), but a deal that
widens the gap between the bots widens it in both games (positively correlated); the
printed `within_deal_correlation` (of the greedy - random differences of a deal's two
games) is the sum of the two, and the ratio is about sqrt(1 + correlation). As a control,
the same is printed for greedy against itself (`_self`), where only seat luck differs.

GAMES (default 400, even) and ROUNDS (default 3) can be set by BENCH_DUPLICATE_GAMES and
BENCH_DUPLICATE_ROUNDS (a quick mode for tests).
"""

from __future__ import annotations

import os
import statistics
import time

from bench.figures import figure

GAMES = 400
ROUNDS = 3
SEED = "bench-duplicate"
GAMES_MEASURED = ("keltis-card", "keltis-dice")


def width_and_correlation(
    game: str, bots: list[str], fmt: str, games: int, seed: str
) -> tuple[float, int, float | None]:
    """Width of the bots[0] - bots[1] interval of one tournament, its n, and (duplicate) the
    correlation of the per-game differences within a deal."""
    from tournaments.local import run_local
    from tournaments.spec import make_spec
    from tournaments.standings import pair_differences, pairs
    from tournaments.summary import deal_size

    spec = make_spec(game, bots, 2, None, seed, format=fmt, games_per_table=games)
    outcomes = run_local(spec)
    (pair,) = pairs(spec.bots, outcomes, deal_size(spec))
    low, high = pair["diff_ci95"]
    correlation = None
    if deal_size(spec) > 1:
        per_game = pair_differences(2, outcomes, 1)[(0, 1)]
        correlation = statistics.correlation(per_game[0::2], per_game[1::2])
    return high - low, pair["n"], correlation


def measure(game: str, bots: list[str], games: int = GAMES, rounds: int = ROUNDS) -> dict:
    """Mean interval widths of duplicate and round_robin over `rounds` seeds, and their ratio."""
    duplicate, plain, correlations = [], [], []
    units = (0, 0)
    for round_ in range(rounds):
        seed = f"{SEED}:{game}:{round_}"
        width, deals, correlation = width_and_correlation(
            game, bots, "duplicate", games, f"{seed}:duplicate"
        )
        duplicate.append(width)
        correlations.append(correlation)
        width, played, _ = width_and_correlation(
            game, bots, "round_robin", games, f"{seed}:round_robin"
        )
        plain.append(width)
        units = (deals, played)
    return {
        "ratio": statistics.mean(duplicate) / statistics.mean(plain),
        "duplicate_width": statistics.mean(duplicate),
        "round_robin_width": statistics.mean(plain),
        "ratios": [d / p for d, p in zip(duplicate, plain, strict=True)],
        "correlation": statistics.mean(correlations),
        "deals": units[0],
        "games": units[1],
    }


def _print(name: str, game: str, bots: list[str], found: dict, rounds: int) -> None:
    spread = ", ".join(f"{r:.3f}" for r in found["ratios"])
    figure(
        name,
        f"{found['ratio']:.3f}",
        f"{game} {' - '.join(bots)}, {found['games']} games each side ({found['deals']} deals), "
        f"mean of {rounds} seeds; per seed: {spread}",
    )
    figure(f"{name}_duplicate_width", f"{found['duplicate_width']:.3f}")
    figure(f"{name}_round_robin_width", f"{found['round_robin_width']:.3f}")
    figure(f"{name}_within_deal_correlation", f"{found['correlation']:.3f}")


def run() -> None:
    games = int(os.environ.get("BENCH_DUPLICATE_GAMES", GAMES))
    rounds = int(os.environ.get("BENCH_DUPLICATE_ROUNDS", ROUNDS))
    if games < 4 or games % 2:
        raise ValueError("BENCH_DUPLICATE_GAMES must be even and at least 4")
    started = time.perf_counter()
    for game in GAMES_MEASURED:
        suffix = "" if game == "keltis-card" else "_" + game.split("-")[1]
        for bots, tail in ((["greedy", "random"], ""), (["greedy", "greedy"], "_self")):
            found = measure(game, bots, games, rounds)
            _print(f"duplicate_ci_ratio{suffix}{tail}", game, bots, found, rounds)
    print(f"# {time.perf_counter() - started:.1f} s", flush=True)
