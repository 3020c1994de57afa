"""GameRecord.moved: the seats that made a move of their own, the fact that decides whether a
rated game may still be aborted and whether its result is rated. A move the clock's fallback
bot makes for a timed-out seat, or for a forfeited one, is not the seat's; the fold says the
same whichever batches it is given, and the bots' run of turns, the cache and a cold read
agree with it."""

from __future__ import annotations

from application.bots import turns as bots
from application.games import clocks
from application.games.service import GameService
from gamelog import snapshot
from gamelog.record import fold_entries
from store.core.cache import RecordCache

CARD = "keltis-card"
CLOCK = {"move_seconds": 1, "bank_seconds": 0, "fallback": "random", "max_timeouts": 3}


def cold(redis_client, game_id: str):
    """The game as a process that never saw it folds it."""
    return GameService(redis_client, RecordCache()).load(game_id)[0]


def test_a_fallback_move_for_a_timed_out_seat_is_not_its_own(redis_client):
    service = GameService(redis_client)
    record, _, _ = service.create(CARD, [{"name": "ann"}, {"bot": "greedy"}], {}, clock=CLOCK)
    entries, after = clocks.timeout_batch(record, record.updated_at + 2000)
    assert service.append_batch(record, entries, after)
    assert after.moved == frozenset() and after.covering is None  # ann's turn was played
    assert cold(redis_client, record.game_id).moved == frozenset()
    one_by_one = record
    for entry in entries:  # the fold keeps the timed-out seat between calls too
        one_by_one = fold_entries(one_by_one, record.game_id, [entry])
    assert one_by_one.moved == frozenset()


def test_the_bots_run_of_turns_marks_their_seats_as_the_fold_does(redis_client):
    service = GameService(redis_client)
    record, tokens, _ = service.create(CARD, [{"name": "ann"}, {"bot": "greedy"}], {})
    move = record.rules.legal_moves(record.state, 0)[0]
    service.play(record.game_id, tokens[0], move, lambda *_: {})
    record = service.load(record.game_id)[0]
    while record.to_move == 0:  # a turn may take several moves
        move = record.rules.legal_moves(record.state, 0)[0]
        service.play(record.game_id, tokens[0], move, lambda *_: {})
        record = service.load(record.game_id)[0]
    assert record.moved == {0} and not record.all_moved
    assert bots.play_bot_turns(service, record.game_id, record.version) > 0
    cached = service.load(record.game_id)[0]  # this process's copy: the run's own record
    assert cached.moved == {0, 1} and cached.all_moved
    assert cold(redis_client, record.game_id).moved == {0, 1}


def test_a_snapshot_keeps_the_seats_that_moved_and_an_older_one_is_ignored(redis_client):
    service = GameService(redis_client)
    record, _, _ = service.create(CARD, [{"bot": "greedy"}, {"bot": "random"}], {})
    bots.play_bot_turns(service, record.game_id, record.version)
    record = service.load(record.game_id)[0]
    blob = snapshot.encode(record, b"entry")
    assert snapshot.decode(blob).record.moved == record.moved
    older = blob.replace(b',"moved":[0,1]', b"")
    assert older != blob and snapshot.decode(older) is None  # the log is folded instead
