"""The `mcts` search bot against `greedy` (issue 14, item 4), seats rotated fairly.

Figures (each line names the games and the budget it was measured with):
- mcts_vs_greedy_card_2p: mcts's share of wins (a shared win counts 1/winners) over 2-player
  keltis-card games against greedy; goal >= 0.65 over 400 games at the default budget;
- mcts_vs_3greedy_card_4p: the same, one mcts against three greedy; goal >= 0.40 (fair: 0.25);
- mcts_vs_greedy_dice_2p: 2-player keltis-dice, boards alternating; goal >= 0.58;
- mcts_move_ms_p50 / _p99: CPU time (thread_time) of every mcts decision in those games
  (single-move decisions included; `mcts_searched_move_ms_*` only the searched ones); goal
  p50 <= 250 and p99 <= 1,000 at the default budget on one core.
- the same win rates at a fixed iteration count (`mcts:i<N>`): machine-independent figures.

400 games at 250 ms per move take hours on two cores, so the default is MCTS_BENCH_GAMES
(40) games per figure; MCTS_BENCH_GAMES=400 runs the full goal. MCTS_BENCH_PROCS (1) games
run at once, each in its own process (CPU time is per thread, so parallel games do not
change the per-move figures, only the wall time). MCTS_BENCH_BUDGETS="50,250,1000" adds the
strength-against-budget table (2-player card), MCTS_BENCH_ITERATIONS (60) sets the fixed
iteration count (0: none of those figures), MCTS_BENCH_ONLY="card_2p,dice_2p,..." picks figures.
"""

from __future__ import annotations

import hashlib
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from domain.bots import DEFAULT_MS
from domain.playout import play_game
from domain.registry import get_rules

GAMES = int(os.environ.get("MCTS_BENCH_GAMES", "40"))
PROCS = int(os.environ.get("MCTS_BENCH_PROCS", "1"))
ITERATIONS = int(os.environ.get("MCTS_BENCH_ITERATIONS", "60"))
BUDGETS = [b for b in os.environ.get("MCTS_BENCH_BUDGETS", "").split(",") if b]
ONLY = [f for f in os.environ.get("MCTS_BENCH_ONLY", "").split(",") if f]

# name -> (game, players, options of game number g)
MATCHES = {
    "card_2p": ("keltis-card", 2, lambda g: {}),
    "card_4p": ("keltis-card", 4, lambda g: {}),
    "dice_2p": ("keltis-dice", 2, lambda g: {"board": ("basic", "advanced")[g // 2 % 2]}),
}
FIGURES = {"card_2p": "mcts_vs_greedy_card_2p", "card_4p": "mcts_vs_3greedy_card_4p"}
FIGURES["dice_2p"] = "mcts_vs_greedy_dice_2p"


def play_one(match: str, bot_name: str, number: int) -> tuple[float, float, list]:
    """(the bot's win share, its score lead, (CPU ms, whether it had a choice) of each of its
    decisions) in game `number`; the bot sits at seat `number % players`, so every deal is
    played from every seat."""
    game, players, options = MATCHES[match]
    rules = get_rules(game)
    inner = rules.bots[bot_name]
    times: list[tuple[float, bool]] = []

    def timed(view, legal_moves, rng):
        begin = time.thread_time()
        move = inner(view, legal_moves, rng)
        times.append(((time.thread_time() - begin) * 1000.0, len(legal_moves) > 1))
        return move

    seat = number % players
    bots = ["greedy"] * players
    bots[seat] = timed
    seed = hashlib.sha256(f"bench-mcts:{match}:{number // players}".encode()).digest()
    result = play_game(rules, bots, seed, number, options(number)).result
    share = 1.0 / len(result["winners"]) if seat in result["winners"] else 0.0
    scores = result["scores"]
    lead = scores[seat] - max(s for i, s in enumerate(scores) if i != seat)
    return share, lead, times


def _run(match: str, bot_name: str, games: int):
    args = [(match, bot_name, n) for n in range(games)]
    if PROCS > 1:
        with ProcessPoolExecutor(PROCS) as pool:
            return list(pool.map(play_one, *zip(*args, strict=True)))
    return [play_one(*a) for a in args]


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(match: str, bot_name: str, games: int, label: str) -> list[tuple[float, bool]]:
    """Print one win-rate figure; the decision times of its games."""
    started = time.monotonic()
    results = _run(match, bot_name, games)
    wins = sum(r[0] for r in results)
    lead = statistics.mean(r[1] for r in results)
    elapsed = time.monotonic() - started
    print(
        f"{label}: {wins / games:.3f} ({wins:g}/{games} games, bot {bot_name}, "
        f"mean lead {lead:+.1f} points, {elapsed:.0f} s)",
        flush=True,
    )
    return [t for r in results for t in r[2]]


def run() -> None:
    """Print the figures of the module docstring."""
    times: list[tuple[float, bool]] = []
    for match, figure in FIGURES.items():
        if ONLY and match not in ONLY:
            continue
        times += measure(match, "mcts", GAMES, figure)
    if times:
        every = [t for t, _ in times]
        searched = [t for t, s in times if s]
        note = f"({len(every)} moves, budget mcts = {DEFAULT_MS} ms)"
        print(f"mcts_move_ms_p50: {_pct(every, 0.5):.1f} {note}")
        print(f"mcts_move_ms_p99: {_pct(every, 0.99):.1f} {note}")
        note = f"({len(searched)} moves with a choice, budget mcts = {DEFAULT_MS} ms)"
        print(f"mcts_searched_move_ms_p50: {_pct(searched, 0.5):.1f} {note}")
        print(f"mcts_searched_move_ms_p99: {_pct(searched, 0.99):.1f} {note}")
        print(f"mcts_move_ms_max: {max(every):.1f}", flush=True)
    fixed = f"mcts:i{ITERATIONS}"
    for match, figure in FIGURES.items():
        if ITERATIONS <= 0 or (ONLY and match not in ONLY):
            continue
        measure(match, fixed, GAMES, f"{figure}_i{ITERATIONS}")
    for budget in BUDGETS:
        measure("card_2p", f"mcts:{budget}", GAMES, f"mcts_vs_greedy_card_2p_{budget}ms")


if __name__ == "__main__":
    run()
