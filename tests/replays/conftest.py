"""Finished in-process games and their replays, shared by the replay tests."""

from __future__ import annotations

import copy
from functools import cache

import pytest

from replays.build import build_replay
from replays.playlog import play_log

GAMES = ("keltis-card", "keltis-dice")


@cache
def _entries(game: str, players: int, seed: int) -> tuple:
    bots = ["random", "greedy"] * 2
    return tuple(
        play_log(game, bots[:players], seed.to_bytes(32, "big"), bot_seed=seed, names=None)
    )


def finished_entries(game: str, players: int = 3, seed: int = 1) -> list[dict]:
    """The stored log of a finished bot game (a fresh deep copy)."""
    return copy.deepcopy(list(_entries(game, players, seed)))


def finished_replay(game: str, players: int = 3, seed: int = 1) -> dict:
    """The replay of a finished bot game (a fresh copy each call)."""
    return build_replay(f"test-{game}-{players}-{seed}", finished_entries(game, players, seed))


@pytest.fixture(params=GAMES)
def game(request) -> str:
    """Each game in turn."""
    return request.param
