"""The arena on real `keltis worker` processes over the real Redis: joined bots are paired,
play, and are paired again; a worker killed and another started keeps the arena going; a
dead bot (no client at all) forfeits on its clock and is paused."""

from __future__ import annotations

import signal
import threading

import pytest

from application.arenas import service as arenas
from application.games.service import GameService
from store.arenas.records import ArenaStore
from store.core.clock import now_ms
from tests.arenas.helpers import bot_accounts, move_for
from tests.workers.processes import wait_for, worker_starter

pytestmark = pytest.mark.redis

FAST = {"KELTIS_ARENA_EVERY_S": "0.05"}


@pytest.fixture
def store(redis_client):
    return ArenaStore(redis_client)


@pytest.fixture
def workers(redis_url):
    with worker_starter(redis_url, "--sweep-every", "0.5", **FAST) as start:
        yield start


class LiveBots(threading.Thread):
    """The clients of some bot accounts: they move in their arena games as soon as due."""

    def __init__(self, service: GameService, store: ArenaStore, aid: str, live: set[str]):
        super().__init__(daemon=True)
        self.service, self.store, self.aid, self.live = service, store, aid, live
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(0.02):
            for game_id in self.store.state(self.aid).running:
                try:
                    move_for(self.service, game_id, self.live)
                except Exception:  # a game not created yet: next time
                    continue


@pytest.fixture
def live_bots():
    running = []

    def start(*args):
        bots = LiveBots(*args)
        bots.start()
        running.append(bots)
        return bots

    yield start
    for bots in running:
        bots.stopped.set()
        bots.join(5)


def open_arena(store, move_seconds=5, max_timeouts=2):
    request = {
        "name": "worker arena",
        "game": "keltis-card",
        "players": 2,
        "clock": {"move_seconds": move_seconds, "max_timeouts": max_timeouts},
        "ends_at": now_ms() + 600_000,
    }
    return arenas.open_arena(store, request)["id"]


def test_workers_pair_joined_bots_again_and_again_and_a_restart_keeps_it_going(
    redis_client, store, workers, live_bots
):
    aid = open_arena(store)
    bots = bot_accounts(redis_client, 4)
    for bot in bots:
        arenas.join(store, aid, bot)
    live_bots(GameService(redis_client), store, aid, {b.folded for b in bots})
    first = workers()
    wait_for(lambda: store.feed_length(aid) >= 4, 30)
    first.send_signal(signal.SIGKILL)  # no goodbye: the schedule lives in Redis
    first.wait()
    done = store.feed_length(aid)
    workers()
    wait_for(lambda: store.feed_length(aid) >= done + 4, 30)
    lines = store.feed(aid, 0, 1000)
    assert len({line["game"] for line in lines}) == len(lines)  # each game counted once
    for line in lines:
        assert len(set(line["players"])) == 2
    state = store.state(aid)
    seated = [a for plan in state.running.values() for a in plan["accounts"]]
    assert len(seated) == len(set(seated))  # nobody in two games
    played = {name for line in lines for name in line["players"]}
    assert played == {b.name for b in bots}


def test_a_dead_bot_forfeits_on_its_clock_then_is_paused(redis_client, store, workers, live_bots):
    # 3 s a move: the dead bot's one timeout forfeits a game; a live bot (a thread polling
    # every 0.02 s) stalled past 1 s on a loaded machine forfeited in its stead.
    aid = open_arena(store, move_seconds=3, max_timeouts=1)
    live = bot_accounts(redis_client, 2)
    (dead,) = bot_accounts(redis_client, 1, prefix="dd")
    for bot in (*live, dead):
        arenas.join(store, aid, bot)
    live_bots(GameService(redis_client), store, aid, {b.folded for b in live})
    workers()
    # Two forfeits of 3 s each, and the live bots' game the dead one may wait out first: a
    # loaded machine gets room.
    wait_for(lambda: dead.folded in store.state(aid).paused, 120, "the dead bot paused")
    lines = store.feed(aid, 0, 1000)
    dead_games = [line for line in lines if dead.name in line["players"]]
    assert len(dead_games) == arenas.PAUSE_AFTER_FORFEITS
    for line in dead_games:  # it never moved: each game aborted, no one's win
        assert line["forfeited"] == [line["players"].index(dead.name)]
        assert line["void"] == "aborted" and line["winners"] == []
    done = store.feed_length(aid)
    wait_for(lambda: store.feed_length(aid) >= done + 2, 120, "the others' games")  # play on
    for line in store.feed(aid, done, 1000):
        assert dead.name not in line["players"]
    board = {r["account"]: r for r in arenas.describe(store, aid)["leaderboard"]}
    assert board[dead.name]["state"] == "paused" and board[dead.name]["games"] == 0
