"""The ladder spread by game type (store.keys.ladder): each game type's log, games hash,
cursor, ratings, board and histories on its own slot, appended to and folded by its own
scripts; the stored ratings still equal a fold of the whole ladder, however the folds race;
and the one-shot moves of the keys of before: the per-game keys off `{ladder}`, then the
single log split into one log per game type, renumbered."""

from __future__ import annotations

import threading

import orjson
import pytest
from redis.crc import key_slot

from application.games.settle import settle_due
from ladder.entries import LadderEntry, LadderSeat
from ladder.fold import fold
from ladder.history import fold_steps
from store import keys
from store.core.codec import text
from store.ladder.history import history_writes
from store.ladder.migrate import move_ladder_logs, move_legacy_ladder
from store.ladder.records import LadderStore
from tests.ladder.conftest import CARD, DICE, finish_bot_game

pytestmark = pytest.mark.redis


def _finish_both(games, count: int) -> None:
    for n in range(count):
        bots = [["greedy", "random"], ["random", "greedy", "greedy"]][n % 2]
        finish_bot_game(games, bots, game=CARD if n % 3 else DICE)


def _slot(key: str) -> int:
    return key_slot(key.encode())


@pytest.mark.cluster_too
def test_each_game_type_folds_on_its_own_slot_and_racing_folds_equal_a_refold(games):
    _finish_both(games, 9)
    ladder = LadderStore(games.client)
    while settle_due(games, now=2**62):  # into the logs, unfolded yet: the folds race below
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
    assert ladder.lengths() == ladder.cursors() == {CARD: 6, DICE: 3}
    assert ladder.cursor() == ladder.length() == 9
    assert ladder.all_ratings() == fold(ladder.entries())[0]
    assert [e.game for e in ladder.entries(CARD)] == [CARD] * 6
    assert _slot(keys.ladder_log(CARD)) != _slot(keys.ladder_log(DICE))
    for game in (CARD, DICE):  # a fold reads its own log, on its ratings' slot
        assert _slot(keys.ladder_log(game)) == _slot(keys.ladder_ratings(game))


# ----- the layout of before: one log of every game type on `{ladder}` ------------------------

SEATS = [("Ann", False), ("Bea", False), ("greedy", True), ("Cid", False)]


def _entries(count: int) -> list[LadderEntry]:
    """Results of both game types, interleaved unevenly, with accounts (they keep histories)."""
    found = []
    for n in range(count):
        game = DICE if n % 3 == 1 else CARD
        players = [SEATS[(n + k) % len(SEATS)] for k in range(2 + n % 2)]
        seats = tuple(
            LadderSeat(name, bot, 10.0 - k, k + 1, k == 0, False)
            for k, (name, bot) in enumerate(players)
        )
        found.append(LadderEntry(f"game-{n:02d}", game, 1_000 + n, seats))
    return found


def _single_log_layout(client, entries: list[LadderEntry], folded: dict[str, int]) -> None:
    """Store the ladder as it was kept before its log was split: one log, its games hash
    (game id -> position), and per game type the cursor over the one log (`folded`: the
    positions it had folded), its ratings and board, and histories scored by position."""
    for at, entry in enumerate(entries):
        client.rpush(keys.legacy_ladder_log(), entry.to_json())
        client.hset(keys.legacy_ladder_games(), entry.game_id, at + 1)
    for game, upto in folded.items():
        ratings, steps = {}, []
        for at, entry in enumerate(entries[:upto]):
            if entry.game == game:
                ratings, _, new = fold_steps([entry], at + 1, ratings)
                steps += new
        for participant_key, rating in ratings.items():
            client.hset(
                keys.ladder_ratings(game), participant_key[1], orjson.dumps(rating.to_dict())
            )
            client.zadd(keys.ladder_board(game), {participant_key[1]: rating.ordinal})
        for command, key, arguments in history_writes(steps):
            client.execute_command(command, key, *arguments)
        client.set(keys.legacy_ladder_log_cursor(game), upto)


def _snapshot(client) -> dict:
    """Every key of the ladder and what it holds."""
    found = {}
    for raw in client.scan_iter(match=f"{keys.legacy_ladder_prefix().split('{')[0]}*"):
        key = text(raw)
        kind = text(client.type(key))
        if kind == "list":
            found[key] = client.lrange(key, 0, -1)
        elif kind == "hash":
            found[key] = client.hgetall(key)
        elif kind == "zset":
            found[key] = client.zrange(key, 0, -1, withscores=True)
        else:
            found[key] = client.get(key)
    return found


def _expected_histories(client, ladder: LadderStore) -> dict:
    """The histories a fold of each game type's log up to its cursor writes."""
    found = {}
    for game, cursor in ladder.cursors().items():
        _, _, steps = fold_steps(ladder.entries(game, count=cursor), 1)
        for _, key, scored in history_writes(steps):
            pairs = zip(scored[1::2], scored[::2], strict=True)
            found.setdefault(key, set()).update((m, float(s)) for m, s in pairs)
    return found


def _histories(client) -> dict:
    return {
        text(key): set(client.zrange(key, 0, -1, withscores=True))
        for key in client.scan_iter(match=keys.ladder_history_pattern())
    }


def _check_moved(client, entries: list[LadderEntry], folded: dict[str, int]) -> None:
    """The logs split exactly, renumbered, and the ladder folds on to a whole re-fold."""
    ladder = LadderStore(client)
    for game in (CARD, DICE):
        mine = [entry for entry in entries if entry.game == game]
        assert client.lrange(keys.ladder_log(game), 0, -1) == [e.to_json().encode() for e in mine]
        seqs = {text(k): int(v) for k, v in client.hgetall(keys.ladder_games(game)).items()}
        assert seqs == {entry.game_id: at + 1 for at, entry in enumerate(mine)}
        assert ladder.cursors()[game] == sum(e.game == game for e in entries[: folded[game]])
    assert ladder.sequence_of(["game-00", "game-01", "nothing"]) == [1, 1, None]
    assert _histories(client) == _expected_histories(client, ladder)
    gone = [keys.legacy_ladder_log(), keys.legacy_ladder_games(), keys.legacy_ladder_cursor()]
    gone += [keys.legacy_ladder_log_cursor(g) for g in (CARD, DICE)]
    gone += [keys.ladder_moving(g) for g in (CARD, DICE)]
    assert not any(client.exists(key) for key in gone)


def _folds_on(client, entries: list[LadderEntry]) -> None:
    ladder = LadderStore(client)
    ladder.fold_pending()
    assert ladder.cursor() == ladder.length() == len(entries)
    assert ladder.all_ratings() == fold(ladder.entries())[0]
    done = ladder.rebuild()  # the stored ratings and histories are the logs' fold, exactly
    assert (done.entries, done.differing, done.history_differing) == (len(entries), 0, 0)
    later = LadderEntry("game-later", DICE, 5_000, entries[1].seats)
    assert ladder.append(later).seq == sum(e.game == DICE for e in entries) + 1


@pytest.mark.cluster_too
def test_the_single_log_splits_by_game_type_once_renumbered_and_folds_on(private_redis):
    client = private_redis
    entries = _entries(11)
    folded = {CARD: 8, DICE: 5}  # each game type had folded part of the one log
    _single_log_layout(client, entries, folded)
    ratings = {g: client.hgetall(keys.ladder_ratings(g)) for g in (CARD, DICE)}
    boards = {g: client.zrange(keys.ladder_board(g), 0, -1, withscores=True) for g in (CARD, DICE)}
    assert move_ladder_logs(client) == 11
    _check_moved(client, entries, folded)
    assert {g: client.hgetall(keys.ladder_ratings(g)) for g in (CARD, DICE)} == ratings
    assert {
        g: client.zrange(keys.ladder_board(g), 0, -1, withscores=True) for g in (CARD, DICE)
    } == boards
    moved = _snapshot(client)
    assert move_ladder_logs(client) == 0  # nothing left to move, nothing changed
    assert move_legacy_ladder(client) == 0
    assert _snapshot(client) == moved
    _folds_on(client, entries)


@pytest.mark.cluster_too
def test_a_move_cut_short_is_finished_by_running_it_again(private_redis):
    client = private_redis
    entries = _entries(9)
    folded = {CARD: 9, DICE: 9}
    _single_log_layout(client, entries, folded)
    # As if a first run died after the card log was written and renamed, before the rest.
    mine = [e.to_json() for e in entries if e.game == CARD]
    client.rpush(keys.ladder_log(CARD), *mine)
    client.rpush(keys.ladder_moving(DICE), "half written")
    assert move_ladder_logs(client) == 9
    _check_moved(client, entries, folded)
    _folds_on(client, entries)


@pytest.mark.cluster_too
def test_the_oldest_keys_move_through_both_moves_and_the_ladder_folds_on(private_redis):
    client = private_redis
    entries = _entries(7)
    _single_log_layout(client, entries, {CARD: 7, DICE: 7})
    # As the single-slot layout stored them: everything on `{ladder}`, one cursor.
    for game in (CARD, DICE):
        for new, old in (
            (keys.ladder_ratings(game), f"ratings:{game}"),
            (keys.ladder_board(game), f"board:{game}"),
        ):
            client.restore(_legacy(old), 0, client.dump(new))
            client.delete(new)
        client.delete(keys.legacy_ladder_log_cursor(game))
    history = keys.ladder_history(CARD, "account:ann")
    client.restore(_legacy(f"history:{CARD}:account:ann"), 0, client.dump(history))
    client.delete(history)
    client.set(keys.legacy_ladder_cursor(), 7)
    assert LadderStore(client).all_ratings() == {}
    assert move_legacy_ladder(client) == 2 * 2 + 1
    assert move_ladder_logs(client) == 7
    assert move_legacy_ladder(client) == move_ladder_logs(client) == 0
    assert LadderStore(client).cursors() == {CARD: 5, DICE: 2}
    assert client.zcard(history) == 2  # Ann's two card games, renumbered
    assert _histories(client) == _expected_histories(client, LadderStore(client))
    _folds_on(client, entries)


@pytest.mark.cluster_too
def test_results_a_new_worker_settled_before_the_move_are_kept_once_after_it(private_redis):
    client = private_redis
    entries = _entries(8)
    _single_log_layout(client, entries, {CARD: 8, DICE: 8})
    ladder = LadderStore(client)
    # A new worker started before the move: one new result, one already in the single log.
    early = LadderEntry("game-early", CARD, 4_000, entries[0].seats)
    assert ladder.append(early).seq == 1
    assert ladder.append(entries[2]).seq == 2
    ladder.fold_pending()
    assert move_ladder_logs(client) == 8
    cards = [e.game_id for e in ladder.entries(CARD)]
    assert cards == [e.game_id for e in entries if e.game == CARD] + ["game-early"]
    assert ladder.cursor() == ladder.length() == 9  # folded again from each log's start
    assert ladder.all_ratings() == fold(ladder.entries())[0]
    assert _histories(client) == _expected_histories(client, ladder)


def _legacy(suffix: str) -> str:
    return keys.legacy_ladder_prefix() + suffix


@pytest.mark.cluster_too
def test_a_game_type_folded_again_by_a_new_worker_keeps_its_new_keys(games):
    finish_bot_game(games, ["greedy", "random"], game=CARD)
    settle_due(games, now=2**62)
    client = games.client
    ratings = LadderStore(client).all_ratings()
    client.hset(_legacy(f"ratings:{CARD}"), "bot:greedy", b"{}")  # stale, from before
    client.set(keys.legacy_ladder_cursor(), 1)
    assert move_legacy_ladder(client) == 0
    assert move_ladder_logs(client) == 0  # no single log: nothing to split
    assert not client.exists(_legacy(f"ratings:{CARD}"), keys.legacy_ladder_cursor())
    assert not client.exists(keys.legacy_ladder_log_cursor(DICE))
    assert LadderStore(client).all_ratings() == ratings
