"""Bots of other packages (entry-point group `keltis.bots`): found through the real
`importlib.metadata` lookup of a small package installed into a temporary directory."""

from __future__ import annotations

import random
import textwrap
import time

import pytest

from domain import plugins
from domain.bots import budgeted
from domain.chance import Chance
from domain.levels import level_names
from domain.playout import play_game
from domain.registry import get_rules
from tournaments.errors import InvalidTournament
from tournaments.spec import make_spec

CARD, DICE = get_rules("keltis-card"), get_rules("keltis-dice")

MODULE = """
import time

def first(view, legal_moves, rng):
    return legal_moves[0]

def last(view, legal_moves, rng):
    return legal_moves[-1]

def slow(view, legal_moves, rng):
    begin = time.thread_time()
    while time.thread_time() - begin < 0.3:
        pass
    return legal_moves[-1]

DICE_ONLY = {"keltis-dice": last}
"""
ENTRY_POINTS = """
[keltis.bots]
firstbot = keltis_fake_bots:first
dicebot = keltis_fake_bots:DICE_ONLY
slowbot = keltis_fake_bots:slow
bad:name = keltis_fake_bots:first
greedy = keltis_fake_bots:first
"""


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """The package `keltis-fake-bots` on sys.path, with its dist-info and entry points."""
    (tmp_path / "keltis_fake_bots.py").write_text(textwrap.dedent(MODULE))
    info = tmp_path / "keltis_fake_bots-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: keltis-fake-bots\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    monkeypatch.syspath_prepend(str(tmp_path))
    plugins.forget()
    yield
    plugins.forget()


def test_entry_point_bots_are_listed_for_their_games(installed):
    assert "firstbot" in list(CARD.bots) and "firstbot" in list(DICE.bots)
    assert "dicebot" in list(DICE.bots) and "dicebot" not in CARD.bots
    assert "bad:name" not in CARD.bots
    assert CARD.bots["greedy"] is CARD.bots.builtins["greedy"]  # a built-in keeps its name
    assert CARD.bots.external("firstbot") and not CARD.bots.external("mcts")


def test_an_entry_point_bot_plays_games_and_tournaments(installed):
    result = play_game(CARD, ["firstbot", "greedy"], bytes(32), 1).result
    assert len(result["scores"]) == 2
    result = play_game(DICE, ["dicebot", "mcts:i2"], bytes(32), 1).result
    assert len(result["scores"]) == 2
    spec = make_spec("keltis-card", ["firstbot", "mcts:i5", "mcts:250", "greedy"], 2, 12, None)
    assert spec.bots == ("firstbot", "mcts:i5", "mcts:250", "greedy")
    with pytest.raises(InvalidTournament, match="not reproducible"):
        make_spec("keltis-card", ["firstbot", "greedy"], 2, 2, None, clock={"fallback": "mcts"})
    clock = {"fallback": "mcts:i20"}
    assert make_spec("keltis-card", ["firstbot", "greedy"], 2, 2, None, clock=clock)


def test_no_entry_points_no_external_bots():
    plugins.forget()
    assert set(CARD.bots) == {"random", "greedy", "mcts", *level_names()}  # and the levels


def test_a_move_over_the_cpu_budget_is_the_fallback_bots(installed):
    state = CARD.fold(CARD.start(2, {}, Chance(bytes(32))))
    view, legal = CARD.view(state, 0), CARD.legal_moves(state, 0)
    fallback_move = CARD.bots["greedy"](view, legal, random.Random(4))
    began = time.thread_time()
    move = CARD.bots["slowbot"](view, legal, random.Random(4))
    assert time.thread_time() - began >= 0.25
    assert move == fallback_move != legal[-1]
    assert CARD.bots["firstbot"](view, legal, random.Random(4)) == legal[0]


def test_the_budget_wrapper_with_a_fake_clock():
    readings = iter([0.0, 0.2, 1.0, 1.3])

    def clock():
        return next(readings)

    run = budgeted(lambda v, m, r: m[-1], lambda v, m, r: m[0], ms=250, clock=clock)
    assert run({}, [1, 2], random.Random(1)) == 2  # 200 ms: within the budget
    assert run({}, [1, 2], random.Random(1)) == 1  # 300 ms: over it
