"""keltis-dice benchmark: engine steps per second and greedy's win rate against random.

`dice_steps_per_s`: commands per second of the bare rules loop `legal_moves` + `decide` +
`evolve` (the seat's choice is a uniform `random.Random` pick; views and bots are not
timed), over random 2-player games on one core, the Chance HMAC for every roll included.
`dice_greedy_vs_random_win_rate`: share of 1,000 two-player games (seats alternating) that
the greedy bot wins outright; a shared win does not count.
"""

from __future__ import annotations

import hashlib
import random
import time

from domain.chance import Chance
from domain.dice import RULES
from domain.game import FINISHED
from domain.playout import play_game

STEP_GAMES = 2_000
DUEL_GAMES = 1_000


def game_seed(index: int) -> bytes:
    """A fixed 32-byte seed per game, so every run plays the same games."""
    return hashlib.sha256(f"bench-dice-{index}".encode()).digest()


def steps_per_second(games: int = STEP_GAMES) -> float:
    """Commands per second of legal_moves + decide + evolve over random games."""
    legal_moves, decide, evolve = RULES.legal_moves, RULES.decide, RULES.evolve
    steps = 0
    elapsed = 0.0
    for index in range(games):
        chance = Chance(game_seed(index))
        rng = random.Random(index)
        choice = rng.choice
        state = RULES.fold(RULES.start(2, {}, chance))
        started = time.process_time()
        while RULES.phase(state) != FINISHED:
            seat = RULES.to_move(state)
            for event in decide(state, seat, choice(legal_moves(state, seat)), chance):
                state = evolve(state, event)
            steps += 1
        elapsed += time.process_time() - started
    return steps / elapsed


def _play(index: int, seats: list[str]) -> dict:
    return play_game(RULES, seats, game_seed(index), bot_seed=index).result


def greedy_win_rate(games: int = DUEL_GAMES) -> float:
    """Outright wins of greedy against random over `games` 2-player games, seats rotating."""
    wins = 0
    for index in range(games):
        greedy_seat = index % 2
        seats = ["random", "random"]
        seats[greedy_seat] = "greedy"
        result = _play(index, seats)
        wins += result["winners"] == [greedy_seat]
    return wins / games


def run() -> None:
    """Print the figures as `name: value` lines."""
    print(f"dice_steps_per_s: {steps_per_second():.0f}", flush=True)
    print(f"dice_greedy_vs_random_win_rate: {greedy_win_rate():.3f}", flush=True)


if __name__ == "__main__":
    run()
