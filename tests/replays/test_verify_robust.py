"""R3: verify() answers every damaged replay with a failed report, never with a crash."""

from __future__ import annotations

import random

from replays.chain import build_chain
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
