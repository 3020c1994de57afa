"""A seat's game at a version the caller names (application.games.moves_at): answered from
this process's copy when it holds exactly that version (no read), else by one read that must
find the game at that version (409 version_conflict naming the current one); the caller is
authenticated before any version is compared (R2), and a copy never answers an account key,
another game's token or a forged one."""

from __future__ import annotations

import pytest

from application.accounts.errors import SeatNotHeld, Unauthenticated
from application.games.errors import VersionConflict
from application.games.moves_at import cached_seat, seat_at
from application.games.service import GameService
from store.games import tokens
from tests.application.documented import answered_status, documented_statuses, served


@pytest.fixture
def game(games):
    """A started game: a person (a game token) at seat 0, a bot at seat 1."""
    record, seat_tokens, _ = games.create("keltis-card", [{"name": "p"}, {"bot": "greedy"}], {})
    return record, seat_tokens[0]


def _forged(token: str) -> str:
    """The token of the same game and seat with another secret."""
    game_id, seat, _ = token.split(".")
    return f"{game_id}.{seat}.{tokens.new_token(game_id, int(seat)).split('.')[2]}"


def _no_reads(games, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the game was read: the copy should have answered")

    monkeypatch.setattr(games, "read", refuse)


def test_the_copy_at_the_version_answers_without_a_read(games, game, monkeypatch):
    record, token = game
    games.load(record.game_id)  # this process now holds the newest version
    _no_reads(games, monkeypatch)
    found, seat = seat_at(games, record.game_id, token, None, record.version)
    assert (found.version, seat) == (record.version, 0)
    assert cached_seat(games, record.game_id, token, record.version)[1] == 0


def test_the_copy_answers_only_at_exactly_its_version(games, game):
    record, token = game
    games.load(record.game_id)
    assert cached_seat(games, record.game_id, token, record.version - 1) is None
    assert cached_seat(games, record.game_id, token, record.version + 1) is None


def test_the_copy_does_not_answer_an_account_key_none_or_another_games_token(games, game):
    record, _ = game
    _, other_tokens, _ = games.create("keltis-card", [{"name": "q"}, {"bot": "greedy"}], {})
    games.load(record.game_id)
    for caller in (None, "kk_" + "A" * 43, other_tokens[0], f"{record.game_id}.1.secret"):
        assert cached_seat(games, record.game_id, caller, record.version) is None


def test_R2_a_forged_token_is_refused_by_the_copy(games, game):
    record, token = game
    games.load(record.game_id)
    with pytest.raises(Unauthenticated):
        cached_seat(games, record.game_id, _forged(token), record.version)


def test_without_a_copy_one_read_answers_at_the_version(private_redis, game):
    record, token = game
    fresh = GameService(private_redis)  # an empty copy: another process
    assert fresh.cache.get(record.game_id) is None
    found, seat = seat_at(fresh, record.game_id, token, None, record.version)
    assert (found.version, seat) == (record.version, 0)


def test_no_version_named_reads_the_newest(games, game):
    record, token = game
    found, seat = seat_at(games, record.game_id, token, None, None)
    assert (found.version, seat) == (record.version, 0)


@pytest.mark.parametrize("off_by", [-1, 1])
def test_another_version_is_a_409_naming_the_current_one(private_redis, game, off_by):
    record, token = game
    with pytest.raises(VersionConflict) as conflict:
        seat_at(GameService(private_redis), record.game_id, token, None, record.version + off_by)
    assert conflict.value.current_version == record.version
    assert answered_status(conflict.value) == 409
    assert documented_statuses("version_conflict") == {409}
    assert served(conflict.value).get_json()["error"]["current_version"] == record.version


@pytest.mark.parametrize("fresh_copy", [True, False])
def test_R2_a_spectator_or_forged_token_is_refused_before_the_version_is_compared(
    private_redis, games, game, fresh_copy
):
    record, token = game
    service = GameService(private_redis) if fresh_copy else games
    games.load(record.game_id)
    for stale in (record.version - 1, record.version, None):
        with pytest.raises(Unauthenticated):
            seat_at(service, record.game_id, None, None, stale)
        with pytest.raises(Unauthenticated):
            seat_at(service, record.game_id, _forged(token), None, stale)


def test_a_seat_the_token_does_not_hold_is_refused_from_the_copy_too(games, game):
    record, token = game
    games.load(record.game_id)
    with pytest.raises(SeatNotHeld):
        seat_at(games, record.game_id, token, 1, record.version)
    with pytest.raises(SeatNotHeld):
        seat_at(games, record.game_id, token, 1, None)
    assert seat_at(games, record.game_id, token, 0, record.version)[1] == 0
