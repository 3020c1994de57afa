"""The long poll of a game's events (application.live.long_polls): it ends at once on a newer
version, wakes on a move made meanwhile, waits out its time when nothing happens, and, held
with an account key, ends with Unauthenticated when the key is replaced (before or during the
wait); the gauge of open long polls comes back down however it ends."""

from __future__ import annotations

import threading
import time

import pytest

from application.accounts.credentials import NONE, credential_of
from application.accounts.errors import Unauthenticated
from application.bots.turns import play_bot_turns
from application.live.long_polls import wait_for_version
from application.metrics.counters import OPEN_LONG_POLLS
from tests.application.played import seated

LONG_S = 30.0  # a wait that would end the test run's patience: it must end sooner


def _open_polls() -> float:
    return OPEN_LONG_POLLS.labels("events")._value.get()


@pytest.fixture
def bots_game(games):
    return seated(games, [{"bot": "greedy"}, {"bot": "random"}])


@pytest.fixture
def anna(accounts):
    return accounts.sign_up("Anna", bot=False, webhook=None)


@pytest.fixture
def annas_game(games, anna):
    """A game waiting for Anna's move (seat 0 starts): its version stays put."""
    return seated(games, [{"account": "Anna"}, {"bot": "greedy"}])


def _in_a_while(action) -> threading.Thread:
    """Run `action` in a thread beside the wait. Either order ends the same: the wait reads
    the version, and re-checks the key, after it starts listening."""
    thread = threading.Thread(target=action, daemon=True)
    thread.start()
    return thread


def test_a_newer_version_ends_the_wait_at_once(games, bots_game):
    started = time.monotonic()
    wait_for_version(games, bots_game.game_id, bots_game.version - 1, LONG_S)
    assert time.monotonic() - started < LONG_S / 3


def test_nothing_new_waits_its_time_and_returns(games, bots_game):
    started, before = time.monotonic(), _open_polls()
    wait_for_version(games, bots_game.game_id, bots_game.version, 0.2)
    assert time.monotonic() - started >= 0.2
    assert games.load(bots_game.game_id)[0].version == bots_game.version
    assert _open_polls() == before


def test_a_move_made_meanwhile_wakes_the_wait(games, bots_game):
    move = _in_a_while(lambda: play_bot_turns(games, bots_game.game_id, bots_game.version))
    started = time.monotonic()
    wait_for_version(games, bots_game.game_id, bots_game.version, LONG_S, NONE)
    assert time.monotonic() - started < LONG_S / 3
    move.join(LONG_S)
    assert games.load(bots_game.game_id)[0].version > bots_game.version


def test_a_valid_account_key_waits_like_any_caller(games, accounts, anna, annas_game):
    credential = credential_of(accounts.store, anna.key)
    wait_for_version(games, annas_game.game_id, annas_game.version, 0.1, credential)


def test_a_key_replaced_before_the_wait_is_refused_at_once(games, accounts, anna, annas_game):
    credential = credential_of(accounts.store, anna.key)
    accounts.rotate_key(anna.record)
    before, started = _open_polls(), time.monotonic()
    with pytest.raises(Unauthenticated):
        wait_for_version(games, annas_game.game_id, annas_game.version, LONG_S, credential)
    assert time.monotonic() - started < LONG_S / 3
    assert _open_polls() == before


def test_a_key_replaced_during_the_wait_ends_it(games, accounts, anna, annas_game):
    credential = credential_of(accounts.store, anna.key)
    rotation = _in_a_while(lambda: accounts.rotate_key(anna.record))
    started = time.monotonic()
    with pytest.raises(Unauthenticated):
        wait_for_version(games, annas_game.game_id, annas_game.version, LONG_S, credential)
    assert time.monotonic() - started < LONG_S / 3
    rotation.join(LONG_S)


def test_a_key_replaced_when_a_version_is_new_still_ends_in_a_refusal(
    games, accounts, anna, annas_game
):
    """The key is checked once the wait is over too: a new version does not answer a
    caller whose key no longer works."""
    credential = credential_of(accounts.store, anna.key)
    accounts.rotate_key(anna.record)
    with pytest.raises(Unauthenticated):
        wait_for_version(games, annas_game.game_id, annas_game.version - 1, LONG_S, credential)
