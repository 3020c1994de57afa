"""The arena's schedule over a real Redis, pass by pass (application.arenas.service): pairing,
re-pairing, leaving mid-game, racing passes, the window, the leaderboard."""

from __future__ import annotations

import threading
from collections import Counter

import pytest

from application.arenas import service as arenas
from application.arenas.worker_pass import ArenaPass
from application.games.service import GameService
from gamelog.outcome import outcome_of
from store import keys
from store.arenas.records import ArenaStore
from store.core.cache import RecordCache
from tests.arenas.helpers import bot_accounts, move_for

pytestmark = pytest.mark.redis

HOUR_MS = 3_600_000


class Clock:
    """A settable clock (ms) for the pass and the games."""

    def __init__(self, now: int):
        self.now = now

    def __call__(self) -> int:
        return self.now


@pytest.fixture
def clock():
    from store.core.clock import now_ms

    return Clock(now_ms())


@pytest.fixture
def service(redis_client, clock):
    return GameService(redis_client, cache=RecordCache(64), clock=clock)


@pytest.fixture
def store(redis_client):
    return ArenaStore(redis_client)


def open_arena(store, clock, players=2, minutes=60):
    request = {
        "name": "test arena",
        "game": "keltis-card",
        "players": players,
        "clock": {"move_seconds": 5},
        "ends_at": clock.now + minutes * 60_000,
    }
    return arenas.open_arena(store, request, now=clock.now)["id"]


def running_games(store, aid) -> dict[str, dict]:
    return store.state(aid).running


def finish_all(service, store, aid) -> None:
    for game_id, plan in running_games(store, aid).items():
        move_for(service, game_id, set(plan["accounts"]))


def test_joined_bots_are_paired_then_paired_again_with_other_opponents(service, store, clock):
    aid = open_arena(store, clock)
    bots = bot_accounts(service.client, 4)
    for bot in bots:
        arenas.join(store, aid, bot, now=clock.now)
    passes = ArenaPass(service, store, clock)
    assert passes.run_arena(aid) == (0, 2)
    first = running_games(store, aid)
    assert sorted(a for plan in first.values() for a in plan["accounts"]) == sorted(
        b.folded for b in bots
    )
    for game_id in first:
        record, _, _ = service.load(game_id)
        assert record.rated and record.clock["move_seconds"] == 5
        assert game_id.startswith(f"{aid}-g")
    finish_all(service, store, aid)
    clock.now += 1000
    assert passes.run_arena(aid) == (2, 2)  # recorded both, paired everyone again at once
    second = running_games(store, aid)
    before = {frozenset(p["accounts"]) for p in first.values()}
    after = {frozenset(p["accounts"]) for p in second.values()}
    assert not before & after  # nobody plays the same opponent twice in a row


def test_two_racing_passes_never_seat_one_bot_twice(service, store, clock, redis_client):
    aid = open_arena(store, clock)
    bots = bot_accounts(service.client, 30)
    for bot in bots:
        arenas.join(store, aid, bot, now=clock.now)
    for _ in range(5):
        start = threading.Barrier(3)
        passes = [
            ArenaPass(GameService(redis_client, clock=clock), ArenaStore(redis_client), clock)
            for _ in range(3)
        ]

        def run(one, barrier):
            barrier.wait()
            one.run_arena(aid)

        threads = [threading.Thread(target=run, args=(p, start)) for p in passes]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        state = store.state(aid)
        seated = Counter(a for plan in state.running.values() for a in plan["accounts"])
        assert set(seated.values()) == {1} and len(seated) == 30
        assert not state.free
        for game_id in state.running:  # each game seats its own two bots, once
            record, _, _ = service.load(game_id)
            assert len({p["account"] for p in record.players}) == 2
        finish_all(service, store, aid)
        clock.now += 1000
        ArenaPass(service, store, clock).run_arena(aid)  # record them: everyone waits again
        finish_all(service, store, aid)
        clock.now += 1000
        for game_id in list(store.state(aid).running):
            record, _, _ = service.load(game_id)
            assert record.finished
        ArenaPass(service, store, clock)._record_over(
            aid, store.spec(aid), store.state(aid).running, clock.now
        )


def test_a_bot_that_leaves_mid_game_finishes_it_and_is_not_paired_again(service, store, clock):
    aid = open_arena(store, clock)
    stays, leaves = bot_accounts(service.client, 2)
    for bot in (stays, leaves):
        arenas.join(store, aid, bot, now=clock.now)
    passes = ArenaPass(service, store, clock)
    passes.run_arena(aid)
    (game_id,) = running_games(store, aid)
    assert arenas.leave(store, aid, leaves)["state"] == "left"
    record, _, _ = service.load(game_id)
    assert not record.finished  # its game goes on with its clock
    move_for(service, game_id, {stays.folded, leaves.folded})
    clock.now += 1000
    assert passes.run_arena(aid) == (1, 0)
    state = store.state(aid)
    assert list(state.free) == [stays.folded] and not state.busy
    board = {row["account"]: row for row in arenas.describe(store, aid, clock.now)["leaderboard"]}
    assert board[leaves.name]["state"] == "left" and board[leaves.name]["games"] == 1
    assert board[stays.name]["state"] == "waiting"


def test_a_bot_forfeiting_twice_in_a_row_is_paused_until_it_joins_again(service, store, clock):
    aid = open_arena(store, clock)
    bots = bot_accounts(service.client, 3)
    dead = bots[0]
    for bot in bots:
        arenas.join(store, aid, bot, now=clock.now)
    passes = ArenaPass(service, store, clock)
    for _ in range(2):
        passes.run_arena(aid)
        game_id = store.state(aid).busy.get(dead.folded)
        if game_id is None:  # the dead one waits this round: let the others finish first
            finish_all(service, store, aid)
            clock.now += 1000
            passes.run_arena(aid)
            game_id = store.state(aid).busy[dead.folded]
        record, _, _ = service.load(game_id)
        seat = next(s for s, p in enumerate(record.players) if p["account"] == dead.name)
        record = _forfeit(service, game_id, seat)
        assert record.finished and seat in outcome_of(record).forfeited
        finish_all(service, store, aid)
        clock.now += 1000
        passes.run_arena(aid)
    state = store.state(aid)
    assert dead.folded in state.paused and dead.folded not in state.free
    assert dead.folded not in state.busy
    row = arenas.join(store, aid, dead, now=clock.now)  # joining again: paired again
    assert row["state"] == "waiting"


def _forfeit(service, game_id, seat):
    """The seat forfeits as a dead client's clock would make it (max_timeouts reached)."""
    from application.games.clocks import forfeit_events
    from gamelog.entries import make_batch
    from gamelog.record import fold_entries

    record, _, _ = service.load(game_id)
    events = forfeit_events(record, seat, "timeouts")
    batch = make_batch(record.version + 1, events, service.clock(), None, None)
    after = fold_entries(record, game_id, batch)
    assert service.append_batch(record, batch, after)
    return after


def test_the_window_end_stops_new_games_and_lets_running_ones_finish(service, store, clock):
    aid = open_arena(store, clock, minutes=1)
    bots = bot_accounts(service.client, 3)
    for bot in bots:
        arenas.join(store, aid, bot, now=clock.now)
    passes = ArenaPass(service, store, clock)
    passes.run_arena(aid)
    (game_id,) = running_games(store, aid)
    clock.now += 61_000
    assert passes.run_arena(aid) == (0, 0)
    assert arenas.describe(store, aid, clock.now)["status"] == "finishing"
    with pytest.raises(arenas.ArenaOver):
        arenas.join(store, aid, bots[0], now=clock.now)
    move_for(service, game_id, {b.folded for b in bots})
    assert passes.run_arena(aid) == (1, 0)  # recorded, nothing new started
    described = arenas.describe(store, aid, clock.now)
    assert described["status"] == "finished" and described["games_started"] == 1
    assert aid not in store.live()


def test_the_leaderboard_counts_each_game_once_from_its_outcome(service, store, clock):
    aid = open_arena(store, clock)
    bots = bot_accounts(service.client, 4)
    for bot in bots:
        arenas.join(store, aid, bot, now=clock.now)
    passes = ArenaPass(service, store, clock)
    expected = {b.name: {"points": 0, "games": 0, "score": 0} for b in bots}
    for _ in range(3):
        passes.run_arena(aid)
        games = running_games(store, aid)
        finish_all(service, store, aid)
        for game_id in games:
            record, _, _ = service.load(game_id)
            ended = outcome_of(record)
            for seat, player in enumerate(record.players):
                row = expected[player["account"]]
                row["games"] += 1
                row["points"] += seat in ended.winners
                row["score"] += ended.scores[seat]
        clock.now += 1000
        passes.run_arena(aid)
        passes._record_over(aid, store.spec(aid), store.state(aid).running, clock.now)
    board = arenas.describe(store, aid, clock.now)["leaderboard"]
    got = {r["account"]: {k: r[k] for k in ("points", "games", "score")} for r in board}
    assert got == expected
    assert [r["rank"] for r in board] == [1, 2, 3, 4]
    assert board == sorted(board, key=lambda r: (-r["points"], -r["score"], r["games"]))
    assert store.feed_length(aid) == 6  # one line per game, each once


def test_the_operator_enters_built_in_heuristic_bots_that_play_like_bot_accounts(
    service, store, clock
):
    request = {
        "name": "with greedy",
        "game": "keltis-card",
        "bots": ["greedy"],
        "ends_at": clock.now + HOUR_MS,
    }
    aid = arenas.open_arena(store, request, now=clock.now)["id"]
    (bot,) = bot_accounts(service.client, 1)
    arenas.join(store, aid, bot, now=clock.now)
    passes = ArenaPass(service, store, clock)
    assert passes.run_arena(aid) == (0, 1)
    (game_id,) = running_games(store, aid)
    record, _, _ = service.load(game_id)
    assert sorted(p.get("bot") or "" for p in record.players) == ["", "greedy"]
    move_for(service, game_id, {bot.folded})  # the built-in bot moves as the workers would
    clock.now += 1000
    assert passes.run_arena(aid) == (1, 1)
    board = {row["account"]: row for row in arenas.describe(store, aid, clock.now)["leaderboard"]}
    assert board["greedy"]["bot"] and board["greedy"]["games"] == 1
    assert not board[bot.name]["bot"] and board[bot.name]["games"] == 1
    with pytest.raises(arenas.InvalidArena):  # a searching bot's CPU would have no payer
        arenas.open_arena(store, {**request, "bots": ["mcts"]}, now=clock.now)


def test_an_entry_whose_account_is_gone_leaves_instead_of_making_void_games(service, store, clock):
    aid = open_arena(store, clock)
    bots = bot_accounts(service.client, 2)
    for bot in bots:
        arenas.join(store, aid, bot, now=clock.now)
    service.client.delete(keys.account(bots[0].folded))  # gone (no API deletes one yet)
    assert service.accounts.get(bots[0].name) is None
    passes = ArenaPass(service, store, clock)
    assert passes.run_arena(aid) == (0, 0)
    state = store.state(aid)
    assert bots[0].folded not in state.members and list(state.free) == [bots[1].folded]
    (line,) = store.feed(aid, 0)
    assert line["void"] == "not_created"
    assert passes.run_arena(aid) == (0, 0) and store.feed_length(aid) == 1  # no more


def test_an_arena_opens_at_its_start_time(service, store, clock):
    request = {
        "name": "later",
        "game": "keltis-card",
        "starts_at": clock.now + 60_000,
        "ends_at": clock.now + HOUR_MS,
    }
    aid = arenas.open_arena(store, request, now=clock.now)["id"]
    bots = bot_accounts(service.client, 2)
    for bot in bots:
        assert arenas.join(store, aid, bot, now=clock.now)["state"] == "waiting"
    passes = ArenaPass(service, store, clock)
    assert arenas.describe(store, aid, clock.now)["status"] == "scheduled"
    assert passes.run_arena(aid) == (0, 0)
    clock.now += 60_000
    assert passes.run_arena(aid) == (0, 1)
