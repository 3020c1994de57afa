"""The `mcts` search bot (ISMCTS) against `greedy`, seats rotated over the same deals.

Figures (each line prints its games, 95% confidence interval and budget):
- mcts_vs_greedy_card_2p: mcts's share of wins (a shared win counts 1/winners) over 2-player
  keltis-card games against greedy; goal >= 0.75 at the default budget;
- mcts_vs_3greedy_card_4p: the same, one mcts against three greedy; goal >= 0.40 (fair: 0.25);
- mcts_vs_greedy_dice_2p: 2-player keltis-dice, boards alternating; goal >= 0.70;
- mcts_1000ms_minus_250ms_card_2p: win share at 1000 ms minus at 250 ms, paired on the same
  deals and seats (the CI is over the per-game differences); goal >= +0.05;
- mcts_move_ms_p50 / _p99: CPU time (thread_time) of every mcts decision in the games at the
  default budget (single-move decisions included; `mcts_searched_move_ms_*` only the
  searched ones; `mcts_move_ms_mean` their mean); goal p50 <= 250 and p99 <= 1,000;
- mcts_iterations_per_s_<match>: iterations per CPU second at the default budget (to turn
  the machine-independent `mcts:i<N>` figures into milliseconds);
- the same win shares at a fixed iteration count (`mcts:i<N>`): machine-independent.

Settings (environment): MCTS_BENCH_GAMES (40) games per figure (the README table wants 200);
MCTS_BENCH_PROCS (1) games at once, each in its own process (CPU time is per thread, so
parallel games do not change the per-move figures, only the wall time);
MCTS_BENCH_ITERATIONS (0: none) the fixed iteration count; MCTS_BENCH_BUDGETS ("50,250,1000")
the table of win share against budget for every match in MCTS_BENCH_TABLE (card_2p);
MCTS_BENCH_ONLY ("card_2p,dice_2p,gain,...") picks figures ("gain": the paired 1000-250 ms).
MCTS_BENCH_TUNE ("ismcts.EXPLORATION=0.5,card_tree.ROLLOUT_TURNS=1") sets constants of
domain.search modules for an experiment. MCTS_BENCH_LEDGER (a path; the README's figures:
bench/results/mcts_games.jsonl) keeps every game played (`bench.mcts_ledger`): a run plays
only the games the ledger lacks for the same code, so a figure can be filled over several runs.

    MCTS_BENCH_GAMES=200 MCTS_BENCH_PROCS=2 MCTS_BENCH_BUDGETS=50,250,1000 \
        MCTS_BENCH_TABLE=card_2p,card_4p,dice_2p python -m bench mcts
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from bench.mcts_ledger import Ledger, fingerprint
from domain.bots import DEFAULT_CAPS_MS, DEFAULT_MS
from domain.playout import play_game
from domain.registry import get_rules

GAMES = int(os.environ.get("MCTS_BENCH_GAMES", "40"))
PROCS = int(os.environ.get("MCTS_BENCH_PROCS", "1"))
ITERATIONS = int(os.environ.get("MCTS_BENCH_ITERATIONS", "0"))
BUDGETS = [b for b in os.environ.get("MCTS_BENCH_BUDGETS", "").split(",") if b]
TABLE = [m for m in os.environ.get("MCTS_BENCH_TABLE", "card_2p").split(",") if m]
ONLY = [f for f in os.environ.get("MCTS_BENCH_ONLY", "").split(",") if f]
TUNE = [t for t in os.environ.get("MCTS_BENCH_TUNE", "").split(",") if t]
LEDGER = os.environ.get("MCTS_BENCH_LEDGER", "")

# name -> (game, players, options of game number g)
MATCHES = {
    "card_2p": ("keltis-card", 2, lambda g: {}),
    "card_4p": ("keltis-card", 4, lambda g: {}),
    "dice_2p": ("keltis-dice", 2, lambda g: {"board": ("basic", "advanced")[g // 2 % 2]}),
}
FIGURES = {"card_2p": "mcts_vs_greedy_card_2p", "card_4p": "mcts_vs_3greedy_card_4p"}
FIGURES["dice_2p"] = "mcts_vs_greedy_dice_2p"


def _tune() -> None:
    """Apply MCTS_BENCH_TUNE (module.NAME=value) to domain.search modules."""
    for item in TUNE:
        target, value = item.split("=")
        module, name = target.rsplit(".", 1)
        number = int(value) if value.lstrip("-").isdigit() else float(value)
        setattr(importlib.import_module(f"domain.search.{module}"), name, number)


def play_one(match: str, bot_name: str, number: int) -> tuple[float, float, list]:
    """(the bot's win share, its score lead, (CPU ms, whether it had a choice) of each of its
    decisions) in game `number`; the bot sits at seat `number % players`, so every deal is
    played from every seat."""
    _tune()
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
    """The results of games 0 to `games` - 1; with a ledger, only the missing ones are
    played, and each is recorded as it ends."""
    ledger = None
    done: dict[int, tuple] = {}
    if LEDGER:
        ledger = Ledger(Path(LEDGER), _code(), match, bot_name, TUNE)
        done = ledger.load()
    missing = [n for n in range(games) if n not in done]
    if PROCS > 1 and len(missing) > 1:
        with ProcessPoolExecutor(PROCS) as pool:
            futures = {pool.submit(play_one, match, bot_name, n): n for n in missing}
            for future in as_completed(futures):
                done[futures[future]] = _record(ledger, futures[future], future.result())
    else:
        for n in missing:
            done[n] = _record(ledger, n, play_one(match, bot_name, n))
    return [done[n] for n in range(games)]


def _code() -> str:
    """The fingerprint of the code the benchmark's games run (`bench.mcts_ledger`)."""
    return fingerprint(inspect.getsource(play_one) + inspect.getsource(_tune))


def _record(ledger: Ledger | None, number: int, result: tuple) -> tuple:
    if ledger is not None:
        ledger.add(number, result)
    return result


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def interval(values: list[float]) -> tuple[float, float, float]:
    """(mean, low, high): the mean and its 95% confidence interval (normal approximation)."""
    mean = statistics.mean(values)
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def measure(match: str, bot_name: str, games: int, label: str) -> list:
    """Print one win-share figure; the results of its games."""
    started = time.monotonic()
    results = _run(match, bot_name, games)
    mean, low, high = interval([r[0] for r in results])
    lead = statistics.mean(r[1] for r in results)
    elapsed = time.monotonic() - started
    print(
        f"{label}: {mean:.3f} (95% CI {low:.3f}-{high:.3f}, {games} games, bot {bot_name}, "
        f"mean lead {lead:+.1f} points, {elapsed:.0f} s)",
        flush=True,
    )
    return results


def gain(games: int) -> None:
    """The paired 1000 ms minus 250 ms figure of 2-player card."""
    high = measure("card_2p", "mcts:1000", games, "mcts_vs_greedy_card_2p_1000ms")
    low = measure("card_2p", "mcts:250", games, "mcts_vs_greedy_card_2p_250ms")
    mean, lo, hi = interval([a[0] - b[0] for a, b in zip(high, low, strict=True)])
    print(
        f"mcts_1000ms_minus_250ms_card_2p: {mean:+.3f} (95% CI {lo:+.3f} to {hi:+.3f}, "
        f"{games} paired games, budgets mcts:1000 and mcts:250)",
        flush=True,
    )


def iteration_rate(match: str) -> None:
    """Iterations per CPU second: the searched moves of one game at mcts:i20."""
    results = _run(match, "mcts:i20", 1)
    searched = [t for t, s in results[0][2] if s]
    if searched:
        rate = 20 * len(searched) / (sum(searched) / 1000.0)
        print(f"mcts_iterations_per_s_{match}: {rate:.0f} (mcts:i20, one game)", flush=True)


def run() -> None:
    """Print the figures of the module docstring."""
    times: list[tuple[float, bool]] = []
    for match, figure in FIGURES.items():
        if ONLY and match not in ONLY:
            continue
        times += [t for r in measure(match, "mcts", GAMES, figure) for t in r[2]]
        iteration_rate(match)
    if times:
        every = [t for t, _ in times]
        searched = [t for t, s in times if s]
        budget = f"budget mcts = {DEFAULT_MS} ms, caps {DEFAULT_CAPS_MS}"
        note = f"({len(every)} moves, {budget})"
        print(f"mcts_move_ms_p50: {_pct(every, 0.5):.1f} {note}")
        print(f"mcts_move_ms_p99: {_pct(every, 0.99):.1f} {note}")
        note = f"({len(searched)} moves with a choice, {budget})"
        print(f"mcts_searched_move_ms_p50: {_pct(searched, 0.5):.1f} {note}")
        print(f"mcts_searched_move_ms_p99: {_pct(searched, 0.99):.1f} {note}")
        print(f"mcts_move_ms_mean: {statistics.mean(every):.1f} {note}")
        print(f"mcts_move_ms_max: {max(every):.1f}", flush=True)
    if not ONLY or "gain" in ONLY:
        gain(GAMES)
    fixed = f"mcts:i{ITERATIONS}"
    for match, figure in FIGURES.items():
        if ITERATIONS <= 0 or (ONLY and match not in ONLY):
            continue
        measure(match, fixed, GAMES, f"{figure}_i{ITERATIONS}")
    for match in TABLE:
        for budget in BUDGETS:
            measure(match, f"mcts:{budget}", GAMES, f"{FIGURES[match]}_{budget}ms")


if __name__ == "__main__":
    run()
