"""The listing and bot-turn indexes (fakeredis: no Lua needed here)."""

from __future__ import annotations

from dataclasses import replace

import fakeredis

from gamelog.record import GameRecord
from store import index


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


def test_games_list_newest_first_with_a_cursor():
    client = fakeredis.FakeRedis()
    for n in range(5):
        pipe = client.pipeline()
        index.update(pipe, record(f"game{n}", 1000 + n))
        pipe.execute()
    page, cursor = index.list_games(client, "waiting", None, 0, 2)
    assert [g["id"] for g in page] == ["game4", "game3"]
    rest, end = index.list_games(client, None, "toy-race", cursor, 10)
    assert [g["id"] for g in rest] == ["game2", "game1", "game0"]
    assert end is None
    assert index.list_games(client, "finished", None, 0, 10) == ([], None)


def test_R2_the_summary_holds_no_seed():
    summary = index.summary(record("g", 1))
    assert "seed" not in str(summary)
    assert summary["players"][1] == {"seat": 1, "name": None, "bot": None, "open": True}


class BotDueRecord(GameRecord):
    """A record whose seat to move is a bot (no rules needed)."""

    def bot_to_move(self) -> str | None:
        return "greedy"


def _queued(pipe) -> list[str]:
    return [args[0] for args, _ in pipe.command_stack]


def test_a_following_version_queues_only_the_writes_that_can_change():
    client = fakeredis.FakeRedis()
    first, second = record("g", 1), replace(record("g", 1), version=2, updated_at=5)
    creating, following = client.pipeline(), client.pipeline()
    index.update(creating, first)
    index.update(following, second, before=first)
    assert _queued(creating) == ["ZADD", "HSET", "ZADD", "ZREM"]  # listed, waiting, no bot
    assert _queued(following) == ["HSET"]


def test_the_bot_turn_entry_goes_once_the_bot_has_moved():
    client = fakeredis.FakeRedis()
    due = BotDueRecord(**vars(record("g", 1)))
    after = replace(record("g", 1), version=2, updated_at=5)
    for current, before in ((due, None), (after, due)):
        pipe = client.pipeline()
        index.update(pipe, current, before=before)
        pipe.execute()
    assert index.bot_turns_due(client, 10**6) == []
    assert index.list_games(client, None, None, 0, 10)[0][0]["version"] == 2
