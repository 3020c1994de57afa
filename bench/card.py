"""keltis-card benchmark: engine speed and bot strength.

- card_steps_per_s / card_games_per_s: random-vs-random 2-player games driven directly
  through the rules (start + fold, then per step legal_moves, a uniform pick, decide and
  evolve of every event); a step is one play or one draw command. Timed in CPU seconds of
  this process (`time.process_time`), so that other jobs on a shared machine do not count.
- card_playout_steps_per_s: the same games through `domain.playout.play_game`, which also
  builds each mover's view for the bot.
- card_greedy_vs_random_win_rate: sole wins of greedy over 1,000 2-player games against
  random, seats alternating.
"""

from __future__ import annotations

import hashlib
import random
import time

from domain.card import RULES
from domain.chance import Chance
from domain.playout import play_game

SPEED_GAMES = 2000
PLAYOUT_GAMES = 300
STRENGTH_GAMES = 1000


def _seed(label: str, number: int) -> bytes:
    return hashlib.sha256(f"bench-card:{label}:{number}".encode()).digest()


def engine_game(seed: bytes, rng: random.Random) -> int:
    """One random-vs-random game straight through the rules; returns its step count."""
    chance = Chance(seed)
    state = RULES.fold(RULES.start(2, {}, chance))
    legal_moves, decide, evolve, phase = RULES.legal_moves, RULES.decide, RULES.evolve, RULES.phase
    steps = 0
    while phase(state) != "finished":
        seat = RULES.to_move(state)
        moves = legal_moves(state, seat)
        for event in decide(state, seat, moves[rng.randrange(len(moves))], chance):
            state = evolve(state, event)
        steps += 1
    return steps


def engine_speed(games: int = SPEED_GAMES) -> tuple[float, float]:
    """(steps per CPU second, games per CPU second) of the bare engine loop."""
    rng = random.Random(1)
    started = time.process_time()
    steps = sum(engine_game(_seed("speed", n), rng) for n in range(games))
    elapsed = time.process_time() - started
    return steps / elapsed, games / elapsed


def playout_speed(games: int = PLAYOUT_GAMES) -> float:
    """Steps per CPU second of random-vs-random games through play_game (views included)."""
    started = time.process_time()
    steps = sum(
        play_game(RULES, ["random", "random"], _seed("playout", n), n).steps for n in range(games)
    )
    return steps / (time.process_time() - started)


def greedy_win_rate(games: int = STRENGTH_GAMES) -> float:
    """Share of games greedy wins alone against random (seats alternating)."""
    wins = 0
    for number in range(games):
        greedy_seat = number % 2
        bots = ["greedy", "random"] if greedy_seat == 0 else ["random", "greedy"]
        result = play_game(RULES, bots, _seed("strength", number), number).result
        wins += result["winners"] == [greedy_seat]
    return wins / games


def run() -> None:
    """Print the keltis-card figures."""
    steps_per_s, games_per_s = engine_speed()
    print(f"card_steps_per_s: {steps_per_s:.0f}", flush=True)
    print(f"card_games_per_s: {games_per_s:.0f}", flush=True)
    print(f"card_playout_steps_per_s: {playout_speed():.0f}", flush=True)
    print(f"card_greedy_vs_random_win_rate: {greedy_win_rate():.2f}", flush=True)


if __name__ == "__main__":
    run()
