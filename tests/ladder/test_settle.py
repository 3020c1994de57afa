"""Rated games and settling them into the ladder, on a real Redis: who may sit at a rated
table, the finishing append filing a game to settle, exactly one ladder entry per game however
often (and however concurrently) it is settled, and ratings that a re-fold reproduces."""

from __future__ import annotations

import threading

import pytest
from click.testing import CliRunner

from application.games import clocks
from application.games.errors import UnratedSeat
from application.games.settle import ladder_entry, requeue_unsettled, settle, settle_due
from cli.main import cli
from ladder.entries import LadderEntry
from ladder.fold import fold
from store import keys
from store.ladder.records import LadderStore
from tests.ladder.conftest import CARD, DICE, finish_bot_game, move_once


def ladder_ids(client) -> list[str]:
    """The game ids of the whole ladder (every game type's log)."""
    return [entry.game_id for entry in LadderStore(client).entries()]


def to_settle(client) -> set[str]:
    return {m.decode() for m in client.zrange(keys.games_to_settle(), 0, -1)}


def test_a_rated_game_refuses_a_seat_played_with_a_per_game_token(games):
    with pytest.raises(UnratedSeat):
        games.create(CARD, [{"name": "ann"}, {"bot": "greedy"}], {}, rated=True)
    with pytest.raises(UnratedSeat):
        games.create(CARD, [{"name": "bob", "bot": "greedy"}, {"name": "ann"}], {}, rated=True)
    record, _, _ = games.create(CARD, [{"name": "ann"}, {"bot": "greedy"}], {})
    assert record.rated is False


def test_a_rated_games_open_seat_is_joined_only_with_an_account_key(games, accounts):
    record, _, _ = games.create(CARD, [{"open": True}, {"bot": "greedy"}], {}, rated=True)
    with pytest.raises(UnratedSeat):
        games.join(record.game_id, 0, "ann")
    key = accounts.sign_up("Ann_1", bot=False, webhook=None).key
    joined, _ = games.join(record.game_id, 0, None, account_key=key)
    assert joined.rated and joined.started
    assert joined.players[0]["account"] == "Ann_1"


def test_rated_is_public_in_the_first_event_and_the_summary(games, private_redis):
    record, _, _ = games.create(CARD, [{"bot": "greedy"}, {"bot": "random"}], {}, rated=True)
    first = games.entries_after(record.game_id, 0, 1)[0]
    assert first.event["rated"] is True and "rated" not in first.event["hidden"]
    summary = games.list_games(None, None, None, 1)[0][0]
    assert summary["id"] == record.game_id and summary["rated"] is True


@pytest.mark.cluster_too
def test_the_finishing_append_files_a_rated_game_and_settling_appends_it_once(games):
    client = games.client
    record = finish_bot_game(games, ["greedy", "random"])
    assert to_settle(client) == {record.game_id}
    assert settle_due(games) == 1
    assert settle_due(games) == 0
    assert settle(games, record).new is False  # settling again finds it there
    assert ladder_ids(client) == [record.game_id]
    assert to_settle(client) == set()
    entry = LadderEntry.from_json(client.lindex(keys.ladder_log(CARD), 0))
    assert entry == ladder_entry(record)
    assert [s.name for s in entry.seats] == ["greedy", "random"]
    assert entry.finished_at == record.updated_at


def test_an_unrated_game_never_reaches_the_ladder(games):
    record = finish_bot_game(games, ["greedy", "random"], rated=False)
    assert to_settle(games.client) == set()
    assert settle(games, record) is None
    settle_due(games)
    assert ladder_ids(games.client) == []


@pytest.mark.cluster_too
def test_settling_one_game_from_many_threads_at_once_appends_it_once(games):
    kinds = (CARD, DICE, CARD)  # each game type's log on its own slot
    records = [finish_bot_game(games, ["greedy", "random"], game=game) for game in kinds]
    barrier = threading.Barrier(8)

    def racer():
        barrier.wait()
        for record in records:
            settle(games, record)

    threads = [threading.Thread(target=racer) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(ladder_ids(games.client)) == sorted(r.game_id for r in records)
    assert LadderStore(games.client).lengths() == {CARD: 2, DICE: 1}


def test_a_settler_that_died_after_appending_leaves_no_second_entry(games):
    record = finish_bot_game(games, ["greedy", "random"])
    settle(games, record)  # appended, then "died" before taking it out of the set
    assert to_settle(games.client) == {record.game_id}
    assert settle_due(games) == 0
    assert ladder_ids(games.client) == [record.game_id]
    assert to_settle(games.client) == set()


def test_a_claimed_game_whose_settler_died_is_settled_after_the_claim_lapses(games):
    record = finish_bot_game(games, ["greedy", "random"])
    ladder = LadderStore(games.client)
    assert ladder.claim_due(record.updated_at, 10_000, 10) == [record.game_id]  # then died
    assert settle_due(games, now=record.updated_at + 1) == 0
    assert settle_due(games, now=record.updated_at + 10_001) == 1
    assert ladder_ids(games.client) == [record.game_id]


def test_a_resigned_account_ranks_last_and_loses_rating(games, accounts):
    key = accounts.sign_up("Quitter", bot=False, webhook=None).key
    record, _, _ = games.create(
        CARD, [{"account": "Quitter"}, {"bot": "greedy"}], {}, token=key, rated=True
    )
    move_once(games, record.game_id, {0: key})
    after, _ = clocks.resign(games, record.game_id, key)
    assert after.finished
    assert settle_due(games) == 1
    entry = LadderEntry.from_json(games.client.lindex(keys.ladder_log(CARD), 0))
    quitter, greedy = entry.seats
    assert (quitter.name, quitter.bot, quitter.rank) == ("Quitter", False, 2)
    assert quitter.forfeited and not quitter.winner
    assert (greedy.rank, greedy.winner) == (1, True)
    rating = LadderStore(games.client).account_ratings("quitter", [CARD])[CARD]
    assert rating.mu < 25 and rating.games == 1


def test_stored_ratings_equal_a_refold_of_the_whole_log_exactly(games):
    for n in range(12):
        bots = [["greedy", "random"], ["random", "greedy", "greedy"]][n % 2]
        finish_bot_game(games, bots, game=CARD if n % 3 else DICE)
        if n % 4 == 3:
            settle_due(games)  # incremental folds, several entries at a time
    settle_due(games)
    ladder = LadderStore(games.client)
    assert ladder.cursor() == ladder.length() == 12
    refold, _ = fold(ladder.entries())
    assert ladder.all_ratings() == refold  # dataclass equality: floats compared exactly
    result = CliRunner().invoke(cli, ["ratings", "rebuild", "--redis-url", _url(games)])
    assert result.exit_code == 0, result.output
    assert "folded 12 ladder entries into 4 ratings; 0 stored ratings differed" in result.output
    assert ladder.all_ratings() == refold


def test_a_rebuild_repairs_stored_ratings_that_drifted(games):
    finish_bot_game(games, ["greedy", "random"])
    settle_due(games)
    games.client.hset(keys.ladder_ratings(CARD), "bot:greedy", b'{"name":"greedy","bot":true,'
                      b'"mu":99.0,"sigma":1.0,"games":1}')  # fmt: skip
    done = LadderStore(games.client).rebuild()
    assert (done.entries, done.ratings, done.differing) == (1, 2, 1)
    assert LadderStore(games.client).all_ratings() == fold(LadderStore(games.client).entries())[0]


def test_reindex_files_finished_rated_games_missing_from_the_ladder(games):
    settled = finish_bot_game(games, ["greedy", "random"])
    settle_due(games)
    lost = finish_bot_game(games, ["random", "greedy"])
    games.client.delete(keys.games_to_settle())  # as if the index write was lost
    result = CliRunner().invoke(cli, ["reindex", "--redis-url", _url(games)])
    assert result.exit_code == 0, result.output
    assert "1 finished rated games are filed" in result.output
    assert to_settle(games.client) == {lost.game_id}
    assert requeue_unsettled(games) == 1  # still missing: filed again, harmlessly
    settle_due(games)
    assert sorted(ladder_ids(games.client)) == sorted([settled.game_id, lost.game_id])


def _url(games) -> str:
    kwargs = games.client.connection_pool.connection_kwargs
    return f"redis://{kwargs['host']}:{kwargs['port']}"


def test_a_rated_games_replay_verifies(games):
    from replays.verify import verify

    record = finish_bot_game(games, ["greedy", "random"])
    report = verify(games.replay(record.game_id))
    assert report.ok, report
