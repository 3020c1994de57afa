"""Do the bots make progress? Self-play games and games between the calibration's levels,
counted by how they ended: the service rules E4, E5 (F5, F6) end a game that stalls, and a
bot worth its name never needs them.

Figures, one line per pairing: `endless_<game>_<a>_vs_<b>: <n> of <games> ended by the
service rules, longest <t> turns (p99 <t>), longest idle run <r>`. Goals: no game ended by
the service rules, the longest 2-player card game under 150 turns.

    ENDLESS_GAMES=200 ENDLESS_PROCS=2 ENDLESS_PAIRS="mcts:i200/mcts:i200,mcts/mcts" \\
        python -m bench endless

ENDLESS_PAIRS lists `a/b` pairings (default: the two self-plays above); `levels` instead
plays every pair of the levels of ENDLESS_GAME (keltis-card by default, 2 players).
"""

from __future__ import annotations

import hashlib
import itertools
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

from domain.chance import Chance
from domain.endless import SERVICE_ENDINGS
from domain.levels import recipes
from domain.playout import play_game
from domain.registry import get_rules

DEFAULT_PAIRS = "mcts:i200/mcts:i200,mcts/mcts"
PROGRESS_EVERY = 10  # a line on stderr every that many games


def settings() -> tuple[str, int, int, list[tuple[str, str]]]:
    """(game, games per pairing, processes, pairings) from the environment."""
    game = os.environ.get("ENDLESS_GAME", "keltis-card")
    games = int(os.environ.get("ENDLESS_GAMES", "200"))
    procs = int(os.environ.get("ENDLESS_PROCS", "2"))
    spec = os.environ.get("ENDLESS_PAIRS", DEFAULT_PAIRS)
    if spec == "levels":
        names = list(recipes(game).values())
        pairs = list(itertools.combinations(names, 2))
    else:
        pairs = [tuple(item.split("/", 1)) for item in spec.split(",") if item]
    return game, games, procs, pairs


def play_one(game: str, bots: tuple[str, str], number: int) -> tuple[str | None, int, int]:
    """(ended_by, turns, longest idle run) of game `number` of a pairing, seats alternating."""
    rules = get_rules(game)
    seated = bots if number % 2 == 0 else bots[::-1]
    seed = hashlib.sha256(f"endless:{game}:{number // 2}".encode()).digest()
    state = rules.fold(rules.start(2, rules.normalize_options({}), Chance(seed)))
    longest = 0

    def on_step(_seat, _command, events) -> None:
        nonlocal state, longest
        for event in events:
            state = rules.evolve(state, event)
        longest = max(longest, state.idle_run)

    playout = play_game(rules, list(seated), seed, number, on_step=on_step)
    return playout.result["ended_by"], playout.state.turns, longest


def run() -> None:
    game, games, procs, pairs = settings()
    for bots in pairs:
        began = time.perf_counter()
        played: list[tuple[str | None, int, int]] = []
        with ProcessPoolExecutor(procs) as pool:
            futures = [pool.submit(play_one, game, bots, number) for number in range(games)]
            for future in as_completed(futures):
                played.append(future.result())
                if len(played) % PROGRESS_EVERY == 0:
                    _report(game, bots, played, began, sys.stderr)
        _report(game, bots, played, began, sys.stdout)


def _report(game: str, bots: tuple[str, str], played: list, began: float, out) -> None:
    """One line of the figures of the games played so far."""
    games = len(played)
    stalled = sum(1 for ended_by, _, _ in played if ended_by in SERVICE_ENDINGS)
    turns = sorted(t for _, t, _ in played)
    p99 = turns[min(len(turns) - 1, int(0.99 * len(turns)))]
    idle = max(run for _, _, run in played)
    label = f"{bots[0]}_vs_{bots[1]}".replace(":", "_")
    print(
        f"endless_{game.replace('-', '_')}_{label}: {stalled} of {games} ended by the "
        f"service rules, longest {turns[-1]} turns (p99 {p99}, median "
        f"{turns[len(turns) // 2]}), longest idle run {idle} "
        f"({time.perf_counter() - began:.0f} s)",
        file=out,
        flush=True,
    )
