"""Fixtures of the ladder tests: a game service on `private_redis` (the ladder's keys are
one global log and its ratings, so these tests use a server nobody else writes to, flushed
before each test: tests.support.fixtures), and a way to finish rated games."""

from __future__ import annotations

import pytest

from api.games.presenters import minimal_move_result
from application.accounts.service import AccountService
from application.bots.turns import play_bot_turns
from application.games.service import GameService
from application.webhooks.policy import WebhookPolicy

CARD = "keltis-card"
DICE = "keltis-dice"


@pytest.fixture
def games(private_redis) -> GameService:
    """A service that enqueues no bot turn (the tests play them in-process)."""
    return GameService(private_redis)


@pytest.fixture
def accounts(private_redis) -> AccountService:
    return AccountService(private_redis, WebhookPolicy(()))


def finish_bot_game(games: GameService, bots: list[str], game: str = CARD, rated: bool = True):
    """A game of built-in bots, created (rated by default) and played to its end here."""
    record, _, _ = games.create(game, [{"bot": bot} for bot in bots], {}, rated=rated)
    return play_to_end(games, record.game_id)


def play_to_end(games: GameService, game_id: str):
    """Play a started game's bot turns (the fallbacks of forfeited seats too) to its end."""
    record, _, _ = games.load(game_id)
    while not record.finished:
        play_bot_turns(games, record.game_id, record.version)
        record, _, _ = games.load(record.game_id)
    return record


def move_once(games: GameService, game_id: str, keys: dict[int, str]):
    """Play until every seat has made a move of its own (a rated game is rated only then):
    the bots' turns, and the first legal move of each seat in `keys` (seat -> its key)."""
    record, _, _ = games.load(game_id)
    while not record.all_moved and not record.finished:
        seat = record.to_move
        if record.bot_of(seat) is not None:
            play_bot_turns(games, game_id, record.version)
        else:
            move = record.rules.legal_moves(record.state, seat)[0]
            games.play(game_id, keys[seat], move, minimal_move_result, seat=seat)
        record, _, _ = games.load(game_id)
    return record
