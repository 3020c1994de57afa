"""The ladder spread by game type (store.keys.ladder): one log, and each game type's cursor,
ratings, board and histories on its own slot, folded by its own check-and-set; the stored
ratings still equal a fold of the whole log, however the folds race; and the one-shot move
of the old `{ladder}` keys."""

from __future__ import annotations

import threading

import pytest
from redis.crc import key_slot

from application.games.settle import settle_due
from ladder.fold import fold
from store import keys
from store.ladder.migrate import move_legacy_ladder
from store.ladder.records import LadderStore
from tests.ladder.conftest import CARD, DICE, finish_bot_game

pytestmark = pytest.mark.redis


def _finish_both(games, count: int) -> None:
    for n in range(count):
        bots = [["greedy", "random"], ["random", "greedy", "greedy"]][n % 2]
        finish_bot_game(games, bots, game=CARD if n % 3 else DICE)


@pytest.mark.cluster_too
def test_each_game_type_folds_on_its_own_slot_and_racing_folds_equal_a_refold(games):
    _finish_both(games, 9)
    ladder = LadderStore(games.client)
    while settle_due(games, now=2**62):  # into the log, unfolded yet: the folds race below
        pass
    games.client.delete(*(keys.ladder_cursor(g) for g in (CARD, DICE)))
    for game in (CARD, DICE):
        games.client.delete(keys.ladder_ratings(game), keys.ladder_board(game))
    threads = [threading.Thread(target=ladder.fold_pending, args=(2,)) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    ladder.fold_pending()
    assert ladder.cursors() == {CARD: 9, DICE: 9} and ladder.cursor() == ladder.length() == 9
    assert ladder.all_ratings() == fold(ladder.entries())[0]
    assert key_slot(keys.ladder_ratings(CARD).encode()) != key_slot(
        keys.ladder_ratings(DICE).encode()
    )


def _to_legacy(client, new: str, old: str) -> None:
    dumped = client.dump(new)
    if dumped is not None:
        client.restore(old, 0, dumped, replace=True)
        client.delete(new)


def _legacy(suffix: str) -> str:
    return keys.legacy_ladder_prefix() + suffix


@pytest.mark.cluster_too
def test_the_old_keys_move_once_and_the_ladder_folds_on(games):
    _finish_both(games, 6)
    settle_due(games, now=2**62)
    ladder = LadderStore(games.client)
    client = games.client
    before = ladder.all_ratings()
    # As the single-slot layout stored them (an account's history: its id holds a colon).
    for game in (CARD, DICE):
        _to_legacy(client, keys.ladder_ratings(game), _legacy(f"ratings:{game}"))
        _to_legacy(client, keys.ladder_board(game), _legacy(f"board:{game}"))
        client.delete(keys.ladder_cursor(game))
    client.zadd(_legacy(f"history:{CARD}:acct:ann"), {b'{"seq":3}': 3})
    client.set(keys.legacy_ladder_cursor(), 6)
    assert ladder.all_ratings() == {}
    assert move_legacy_ladder(client) == 2 * 2 + 1
    assert move_legacy_ladder(client) == 0
    assert ladder.all_ratings() == before and ladder.cursors() == {CARD: 6, DICE: 6}
    history = keys.ladder_history(CARD, "acct:ann")
    assert client.zrange(history, 0, -1, withscores=True) == [(b'{"seq":3}', 3.0)]
    _finish_both(games, 3)
    settle_due(games, now=2**62)
    assert ladder.all_ratings() == fold(ladder.entries())[0]


@pytest.mark.cluster_too
def test_a_game_type_folded_again_by_a_new_worker_keeps_its_new_keys(games):
    finish_bot_game(games, ["greedy", "random"], game=CARD)
    settle_due(games, now=2**62)
    client = games.client
    ratings = LadderStore(client).all_ratings()
    client.hset(_legacy(f"ratings:{CARD}"), "bot:greedy", b"{}")  # stale, from before
    client.set(keys.legacy_ladder_cursor(), 1)
    assert move_legacy_ladder(client) == 0
    assert not client.exists(_legacy(f"ratings:{CARD}"), keys.legacy_ladder_cursor())
    assert LadderStore(client).all_ratings() == ratings
