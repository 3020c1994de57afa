"""Exactly once with real `keltis worker` processes: rated games finished by workers reach
the ladder once each, with two workers settling at once, and after a worker is SIGKILLed
between finishing a game and settling it."""

from __future__ import annotations

import signal

import pytest

from application.games.service import GameService
from application.operations.jobs import BotTurnQueue
from ladder.fold import fold
from store import keys
from store.ladder.records import LadderStore
from tests.ladder.conftest import CARD
from tests.workers.processes import wait_for, worker_starter

FAST = ("--settle-every", "0.05", "--sweep-every", "0.3", "--stale-after", "0.5")


@pytest.fixture
def workers(private_redis_server):
    """Start real workers on the ladder's server; all stopped at teardown."""
    with worker_starter(private_redis_server.url) as start:
        yield start


@pytest.fixture
def scheduled(private_redis) -> GameService:
    """A service whose bot turns go to the workers' queues."""
    return GameService(private_redis, scheduler=BotTurnQueue(private_redis))


def create_rated(service: GameService) -> str:
    record, _, _ = service.create(CARD, [{"bot": "greedy"}, {"bot": "random"}], {}, rated=True)
    return record.game_id


def ladder_ids(client) -> list[str]:
    """The game ids of the whole ladder (every game type's log)."""
    return [entry.game_id for entry in LadderStore(client).entries()]


def test_two_workers_settle_every_rated_game_once(workers, scheduled, private_redis):
    workers(*FAST)
    workers(*FAST)
    ids = [create_rated(scheduled) for _ in range(12)]
    wait_for(lambda: len(ladder_ids(private_redis)) >= len(ids), 60)
    # File every game to settle again (as a reindex may): both workers race over them.
    private_redis.zadd(keys.games_to_settle(), dict.fromkeys(ids, 0))
    wait_for(lambda: private_redis.zcard(keys.games_to_settle()) == 0, 30)
    assert sorted(ladder_ids(private_redis)) == sorted(ids)
    ladder = LadderStore(private_redis)
    wait_for(lambda: ladder.cursor() == len(ids), 10)
    assert ladder.all_ratings() == fold(ladder.entries())[0]


def test_a_worker_killed_between_finishing_and_settling_leaves_the_game_rated_once(
    workers, scheduled, private_redis
):
    finisher = workers("--settle-every", "600", "--sweep-every", "0")  # plays, never settles
    game_id = create_rated(scheduled)
    wait_for(lambda: scheduled.load(game_id)[0].finished, 60)
    assert private_redis.zscore(keys.games_to_settle(), game_id) is not None
    finisher.send_signal(signal.SIGKILL)
    finisher.wait(timeout=10)
    assert ladder_ids(private_redis) == []
    workers(*FAST)
    wait_for(lambda: private_redis.zcard(keys.games_to_settle()) == 0, 30)
    assert ladder_ids(private_redis) == [game_id]
    ladder = LadderStore(private_redis)
    wait_for(lambda: ladder.cursor() == 1, 10)
    assert {name for (_, name) in ladder.all_ratings()} == {"bot:greedy", "bot:random"}
