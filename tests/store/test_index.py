"""The listing and bot-turn indexes, on a real Redis nobody else writes to (and on a cluster).

The index keys span games, so the listing tests use `private_redis`: a server nobody else
writes to, flushed before each test.
"""

from __future__ import annotations

import random
import time
import uuid
from dataclasses import dataclass, replace

import pytest
import redis

from application.games.service import GameService
from gamelog.record import STATUSES, GameRecord
from store import keys
from store.core.cursor import Position
from store.games import index
from tests.store import toy_game

OTHER = "other-race"


@dataclass(frozen=True)
class Listed(GameRecord):
    """A record whose status is given (no rules or state needed)."""

    fixed_status: str = "waiting"

    @property
    def status(self) -> str:
        return self.fixed_status


class BotDueRecord(GameRecord):
    """A record whose seat to move is a bot (no rules needed)."""

    def bot_to_move(self) -> str | None:
        return "greedy"


def record(game_id: str, created: int, players=({"name": "a"}, {"open": True})) -> GameRecord:
    return GameRecord(
        game_id=game_id,
        game="toy-race",
        options={},
        players=tuple(players),
        seed_hex="00" * 32,
        created_at=created,
        version=1,
        updated_at=created,
    )


def listed(game_id: str, created: int, status: str, game: str = "toy-race") -> Listed:
    return Listed(**{**vars(record(game_id, created)), "game": game, "fixed_status": status})


def write(client, *updates) -> None:
    """Run `index.update(pipe, current, before)` for each (current, before) in one pipeline."""
    pipe = client.pipeline(transaction=False)
    for current, before in updates:
        index.update(pipe, current, before)
    pipe.execute()


def decoded(ids) -> set[str]:
    return {i.decode() if isinstance(i, bytes) else i for i in ids}


def status_sets_holding(client, game_id: str, game: str) -> tuple[set[str], set[str]]:
    """The statuses whose set, and whose (game, status) set, hold `game_id` (read raw)."""
    by_status = {s for s in STATUSES if client.zscore(keys.games_by_status(s), game_id)}
    by_both = {
        s for s in STATUSES if client.zscore(keys.games_by_game_and_status(game, s), game_id)
    }
    return by_status, by_both


def every_page(client, status, game, limit) -> list[str]:
    """Ids of every listed game, page after page, following the cursor."""
    ids, position = [], None
    while True:
        page, position = index.list_games(client, status, game, position, limit)
        assert len(page) <= limit
        ids += [g["id"] for g in page]
        if position is None:
            return ids


@pytest.fixture
def toy(monkeypatch):
    return toy_game.register(monkeypatch)


def test_games_list_newest_first_with_a_cursor(private_redis):
    write(private_redis, *((record(f"game{n}", 1000 + n), None) for n in range(5)))
    page, cursor = index.list_games(private_redis, "waiting", None, None, 2)
    assert [g["id"] for g in page] == ["game4", "game3"]
    rest, end = index.list_games(private_redis, "waiting", "toy-race", cursor, 10)
    assert [g["id"] for g in rest] == ["game2", "game1", "game0"]
    assert end is None
    assert index.list_games(private_redis, "finished", None, None, 10) == ([], None)
    assert index.list_games(private_redis, None, "no-such-game", None, 10) == ([], None)
    assert index.list_games(private_redis, None, None, Position(1000, "game0"), 10) == ([], None)


def test_listings_by_status_by_game_and_by_both_hold_exactly_their_games(private_redis):
    rng = random.Random(4)
    games = [
        listed(f"g{n:03d}", 1000 + n, rng.choice(STATUSES), rng.choice(["toy-race", OTHER]))
        for n in range(120)
    ]
    write(private_redis, *((g, None) for g in rng.sample(games, len(games))))
    newest_first = sorted(games, key=lambda g: -g.created_at)
    for status in (None, *STATUSES):
        for game in (None, "toy-race", OTHER):
            expected = [
                g.game_id
                for g in newest_first
                if status in (None, g.status) and game in (None, g.game)
            ]
            assert every_page(private_redis, status, game, 7) == expected, (status, game)


def test_the_next_cursor_is_the_pages_last_game_and_none_on_the_last_page(private_redis):
    write(private_redis, *((listed(f"g{n}", n, "active"), None) for n in range(6)))
    assert index.list_games(private_redis, "active", None, None, 4)[1] == Position(2, "g2")
    last, cursor = index.list_games(private_redis, "active", None, Position(2, "g2"), 4)
    assert ([g["id"] for g in last], cursor) == (["g1", "g0"], None)
    assert index.list_games(private_redis, "active", None, None, 6)[1] is None


def test_a_status_change_moves_the_game_to_the_new_status_sets_only(private_redis):
    waiting = listed("g", 5, "waiting")
    active = replace(waiting, version=2, fixed_status="active")
    final = replace(active, version=3, fixed_status="final_round")
    done = replace(final, version=4, fixed_status="finished")
    write(private_redis, (waiting, None))
    for before, current in ((waiting, active), (active, final), (final, done)):
        write(private_redis, (current, before))
        assert status_sets_holding(private_redis, "g", "toy-race") == (
            {current.status},
            {current.status},
        )
        for status in STATUSES:
            shown = [
                g["id"] for g in index.list_games(private_redis, status, "toy-race", None, 10)[0]
            ]
            assert shown == (["g"] if status == current.status else [])
    assert index.list_games(private_redis, None, "toy-race", None, 10)[0][0]["status"] == "finished"


def test_a_following_version_queues_only_the_writes_that_can_change(private_redis):
    first = listed("g", 1, "active")
    second = replace(first, version=2, updated_at=5)
    third = replace(second, version=3, fixed_status="finished")
    following, finishing = private_redis.pipeline(), private_redis.pipeline()
    index.update(following, second, before=first)
    index.update(finishing, third, before=second)
    assert _queued(following) == [("HSET", keys.game_summaries())]
    assert sorted(_queued(finishing)) == sorted(
        [
            ("HSET", keys.game_summaries()),
            ("ZADD", keys.games_by_status("finished")),
            ("ZADD", keys.games_by_game_and_status("toy-race", "finished")),
            ("ZREM", keys.games_by_status("active")),
            ("ZREM", keys.games_by_game_and_status("toy-race", "active")),
            ("ZADD", keys.games_to_compact()),  # the finishing append files it for compaction
        ]
    )


def _queued(pipe) -> list[tuple[str, str]]:
    return [(args[0], args[1]) for args, _ in pipe.command_stack]


def test_an_update_without_before_takes_the_game_out_of_every_other_status_set(private_redis):
    game = listed("g", 7, "active")
    for status in STATUSES:  # stale entries, as a lost or half-applied write may leave
        private_redis.zadd(keys.games_by_status(status), {"g": 7})
        private_redis.zadd(keys.games_by_game_and_status("toy-race", status), {"g": 7})
    write(private_redis, (game, None))
    assert status_sets_holding(private_redis, "g", "toy-race") == ({"active"}, {"active"})
    assert decoded(private_redis.zrange(keys.games_by_game("toy-race"), 0, -1)) == {"g"}


def test_the_rebuild_from_the_logs_files_every_game_under_its_status_and_nothing_else(
    private_redis, toy
):
    service = GameService(private_redis)
    waiting, _, _ = service.create(toy, [{"name": "a"}, {"open": True}], {})
    joined, _, _ = service.create(toy, [{"name": "a"}, {"open": True}], {})
    service.join(joined.game_id, 1, "b")
    done, done_tokens, _ = service.create(toy, [{"name": "a"}, {"name": "b"}], {})
    while (current := service.load(done.game_id)[0]).status != "finished":
        service.play(done.game_id, done_tokens[current.to_move], {"action": "pass"}, _render)
    truth = {waiting.game_id: "waiting", joined.game_id: "active", done.game_id: "finished"}
    for game_id, status in truth.items():  # written by the service as the games went on
        assert status_sets_holding(private_redis, game_id, toy) == ({status}, {status})

    stale = [k for s in STATUSES if s != "waiting" for k in _status_keys(toy, s)]
    private_redis.delete(*_status_keys(toy, "waiting"), keys.games_by_game(toy))
    for key in stale:  # every game also in every other status's sets
        private_redis.zadd(key, {game_id: 1 for game_id in truth})

    assert service.rebuild_index() == 3
    for game_id, status in truth.items():
        assert status_sets_holding(private_redis, game_id, toy) == ({status}, {status})
        assert [g["id"] for g in service.list_games(status, toy, None, 10)[0]] == [game_id]
    assert decoded(private_redis.zrange(keys.games_by_game(toy), 0, -1)) == set(truth)


def _status_keys(game: str, status: str) -> list[str]:
    return [keys.games_by_status(status), keys.games_by_game_and_status(game, status)]


def _render(record, batch, seat):
    return {"version": record.version}


def test_the_entries_read_for_a_page_do_not_grow_with_the_games_stored(
    private_redis_server, private_redis
):
    """A page reads its `limit` + 1 ids with their scores and `limit` summaries, however many
    games exist."""
    counted, reads = counting_client(private_redis_server)
    write(private_redis, *((listed(f"old{n:04d}", n, "final_round"), None) for n in range(12)))
    write(
        private_redis,
        *((listed(f"dice{n:04d}", 20 + n, "finished", OTHER), None) for n in range(12)),
    )
    filters = [("final_round", None), (None, OTHER), ("final_round", "toy-race"), (None, None)]

    second_pages = {f: index.list_games(private_redis, *f, None, 5)[1] for f in filters}

    def entries_per_page() -> list[int]:
        found = []
        for status, game in filters:
            reads.clear()
            page, _ = index.list_games(counted, status, game, second_pages[status, game], 5)
            assert len(page) == 5
            found.append(sum(reads))
        return found

    few = entries_per_page()
    rng = random.Random(9)
    for first in range(100, 3100, 500):  # 3,000 newer games, almost none matching a filter
        write(
            private_redis,
            *(
                (listed(f"new{n:05d}", n, rng.choice(["active", "waiting"])), None)
                for n in range(first, first + 500)
            ),
        )
    assert entries_per_page() == few
    assert max(few) <= 3 * 5 + 2  # (id, score) of limit + 1 ids, limit summaries


def counting_client(server) -> tuple[redis.Redis, list[int]]:
    """A client of `server` that notes how many entries each reply from Redis holds."""
    reads: list[int] = []

    class Counting(redis.Connection):
        def read_response(self, *args, **kwargs):
            reply = super().read_response(*args, **kwargs)
            reads.append(_entries(reply))
            return reply

    pool = redis.ConnectionPool(connection_class=Counting, host=server.host, port=server.port)
    counted = redis.Redis(connection_pool=pool)
    counted.ping()
    return counted, reads


def _entries(reply) -> int:
    if isinstance(reply, list | tuple):
        return sum(_entries(item) for item in reply)
    return 1


def test_the_bot_turn_entry_goes_once_the_bot_has_moved(private_redis):
    due = BotDueRecord(**vars(record("g", 1)))
    after = replace(record("g", 1), version=2, updated_at=5)
    write(private_redis, (due, None))
    assert index.bot_turns_due(private_redis, 10**6) == ["g"]
    write(private_redis, (after, due))
    assert index.bot_turns_due(private_redis, 10**6) == []
    assert index.list_games(private_redis, None, None, None, 10)[0][0]["version"] == 2


def test_R2_the_summary_holds_no_seed():
    summary = index.summary(record("g", 1))
    assert "seed" not in str(summary)
    assert summary["players"][1] == {
        "seat": 1,
        "name": None,
        "bot": None,
        "open": True,
        "invite": False,
    }


@pytest.mark.slow
def test_the_filtered_listings_work_on_a_redis_cluster(redis_cluster):
    """Index keys span games: each command names one key, so a cluster pipeline can send it."""
    cluster = redis_cluster.client()
    game = f"toy-{uuid.uuid4().hex[:12]}"  # the cluster is shared: this test's own game
    ids = [f"{game}-{n}" for n in range(6)]
    now = int(time.time() * 1000)  # newer than the other tests' games on the shared cluster
    games = [listed(gid, now + n, "waiting", game) for n, gid in enumerate(ids)]
    write(cluster, *((g, None) for g in games))
    started = [replace(g, version=2, fixed_status="active") for g in games[:4]]
    write(cluster, *((after, before) for after, before in zip(started, games, strict=False)))
    done = replace(started[1], version=3, fixed_status="finished")
    write(cluster, (done, started[1]))

    assert every_page(cluster, None, game, 4) == ids[::-1]
    assert every_page(cluster, "waiting", game, 4) == [ids[5], ids[4]]
    assert every_page(cluster, "active", game, 2) == [ids[3], ids[2], ids[0]]
    assert every_page(cluster, "finished", game, 2) == [ids[1]]
    assert status_sets_holding(cluster, ids[1], game) == ({"finished"}, {"finished"})
    status_page = index.list_games(cluster, "finished", None, None, 100)[0]
    assert ids[1] in {g["id"] for g in status_page}
