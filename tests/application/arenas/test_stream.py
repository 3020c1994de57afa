"""An arena's live stream (application.arenas.stream): its leaderboard first, each recorded
game's line numbered from where the client resumes, a leaderboard after new lines, keep-alives
while nothing happens, an end line once the arena is over and every line was sent, and an
end after `max_s`; an unknown arena is refused."""

from __future__ import annotations

import itertools

import pytest

from application.arenas.errors import ArenaNotFound
from application.arenas.stream import arena_events
from store.core.clock import now_ms
from tests.application.arenas.conftest import RANDOM, played


def _ticks(step: float = 1.0):
    """A monotonic clock that moves `step` seconds at each reading."""
    count = itertools.count()
    return lambda: next(count) * step


def _stream(games, aid, after=0, max_s=60.0, clock=None):
    return arena_events(games, aid, after, 0.01, max_s, clock or _ticks())


def test_the_stream_opens_with_the_leaderboard(games, store, aid):
    first = next(_stream(games, aid))
    assert first["type"] == "leaderboard" and first["status"] == "running"
    assert {row["account"] for row in first["leaderboard"]} == {"greedy", "random"}


def test_each_recorded_game_comes_numbered_then_the_leaderboard_it_changed(games, store, aid):
    lines = [played(store, aid), played(store, aid, winner=RANDOM)]
    events = _stream(games, aid)
    next(events)
    assert next(events) == {**lines[0], "position": 1}
    assert next(events) == {**lines[1], "position": 2}
    board = next(events)
    assert board["type"] == "leaderboard"
    assert [(row["account"], row["points"], row["games"]) for row in board["leaderboard"]] == [
        ("greedy", 1, 2),
        ("random", 1, 2),
    ]


def test_a_client_resuming_after_n_lines_gets_the_rest_numbered_on(games, store, aid):
    lines = [played(store, aid) for _ in range(3)]
    events = _stream(games, aid, after=2)
    next(events)
    assert next(events) == {**lines[2], "position": 3}
    assert next(events)["type"] == "leaderboard"


def test_a_game_recorded_while_the_stream_is_open_is_sent(games, store, aid):
    events = _stream(games, aid)
    next(events)
    line = played(store, aid)
    assert next(events) == {**line, "position": 1}


def test_keep_alives_while_nothing_happens_and_an_end_after_max_s(games, store, aid):
    # The clock reads 0 at the start (the end at 2.5), then 1 and 2 (a keep-alive each),
    # then 3: past the end.
    assert list(_stream(games, aid, max_s=2.5))[1:] == [None, None]


def test_an_arena_over_ends_the_stream_after_its_last_line(games, store, aid):
    line = played(store, aid)
    store.close(aid, now_ms())
    store.finish(aid, now_ms())
    events = list(_stream(games, aid))
    assert [e["type"] for e in events] == [
        "leaderboard",
        "game_finished",
        "leaderboard",
        "arena_finished",
    ]
    assert events[0]["status"] == "finished"
    assert events[1] == {**line, "position": 1}
    assert events[-1] == {"type": "arena_finished", "games": 1}


def test_a_client_that_has_every_line_of_an_arena_over_gets_only_the_end(games, store, aid):
    played(store, aid)
    store.finish(aid, now_ms())
    assert [e["type"] for e in _stream(games, aid, after=1)] == ["leaderboard", "arena_finished"]


def test_an_unknown_arena_is_refused(games):
    with pytest.raises(ArenaNotFound):
        next(_stream(games, "no-such-arena"))
