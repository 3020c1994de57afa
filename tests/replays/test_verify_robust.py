"""R3: verify() answers every damaged replay with a failed report, never with a crash."""

from __future__ import annotations

import random

import pytest

from replays.chain import build_chain
from replays.shown import LINE_LIMIT
from replays.verify import verify
from tests.replays.conftest import finished_replay

ODD_VALUES = (None, True, -1, 2**70, 1.5, "", "x", [], [1, "a"], {}, {"type": 3})


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*path, index))


def _replace(replay: dict, path: tuple, value) -> None:
    target = replay
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


def test_R3_damaged_replays_fail_cleanly(game):
    rng = random.Random(102)
    original = finished_replay(game, players=2)
    paths = [p for p in _paths(original) if p and p != ("header", "game_id")]
    for _ in range(200):
        replay = finished_replay(game, players=2)
        path = rng.choice(paths)
        before = replay
        for key in path:
            before = before[key]
        value = rng.choice([v for v in ODD_VALUES if v != before or type(v) is not type(before)])
        _replace(replay, path, value)
        rechain = path[0] != "chain" and isinstance(replay["entries"], list)
        if rechain and rng.random() < 0.5:
            replay["chain"] = build_chain(replay)
        report = verify(replay)
        assert report.message
        if path[-1] == "at" and type(value) is int and value >= 0:
            continue  # a time is only pinned by a published final hash (FORMAT.md)
        assert not report.ok, (path, value)


def _deep(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("make", "phrase"),
    [
        (lambda: 10**5000, "larger than 2**53 - 1"),
        (lambda: -(2**53), "larger than 2**53 - 1"),
        (lambda: float("nan"), "not finite"),
        (lambda: float("inf"), "not finite"),
        (lambda: "\ud800", "lone surrogate"),
        (lambda: {"\udfff": 1}, "lone surrogate"),
        (lambda: _deep(5_000), "nested more than 64 levels deep"),
        (lambda: {1: "x"}, "an object key is not text"),
        (lambda: b"bytes", "is not JSON"),
    ],
)
def test_R3_verify_refuses_values_beyond_the_bounds_without_crashing(make, phrase):
    """The Python API too: verify() on a decoded replay never raises (RecursionError,
    ValueError of int conversion, UnicodeEncodeError of a surrogate)."""
    replay = finished_replay("keltis-dice", players=2)
    replay["result"]["extra"] = make()
    report = verify(replay)
    assert (report.ok, report.check) == (False, "format")
    assert phrase in report.message
    assert len(report.line()) <= LINE_LIMIT


def test_R3_verify_line_is_escaped_and_bounded_whatever_the_message():
    replay = finished_replay("keltis-dice", players=2)
    replay["format"] = "\x1b[2J" + "y" * 1_000_000 + "\u202e"
    line = verify(replay).line()
    assert len(line) <= LINE_LIMIT
    assert "\x1b" not in line and "\u202e" not in line
    assert line.startswith("FAILED [format]: not a keltis-replay file (format is '\\x1b[2Jyyy")
