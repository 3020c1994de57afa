"""Every read path serves a game moved to the archive tier (PostgreSQL)
unchanged: state, `?at=N`, events, replay, replay.html, the lists with their cursors, the
export, the account's games (public and its own) and `keltis ratings rebuild` give the same
bytes after the move as before it; an unreachable archive is a 503. A real PostgreSQL server
(tests.support.postgres) and a Redis of the test's own (private_redis: the listings span
games)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from api import create_app
from application.accounts.service import AccountService
from application.bots.turns import play_bot_turns
from application.games import clocks
from application.games.service import GameService
from application.games.settle import settle_due
from application.operations.archive import archive_due
from application.operations.compaction import compact_due
from application.webhooks.policy import WebhookPolicy
from cli.ratings import rebuild
from store import keys
from store.archive import tier as archive_module
from store.archive.tier import URL_ENV, close_archive
from tests.api.contract import ContractClient
from tests.ladder.conftest import move_once

CARD = "keltis-card"
DICE = "keltis-dice"
SEED = bytes(range(32))
GAME_PATHS = ("", "?at=1", "?at=5", "/events", "/events?after=5&limit=7", "/replay")
LISTS = (
    ("/v1/games", {"limit": 2}),
    ("/v1/games", {"limit": 1, "status": "finished"}),
    ("/v1/games", {"limit": 2, "game": CARD, "status": "finished"}),
    ("/v1/games", {"limit": 3, "game": DICE}),
    ("/v1/accounts/Alpha/games", {"limit": 1}),
    ("/v1/accounts/Beta/games", {"limit": 2}),
    ("/v1/ratings", {"game": CARD}),
)
EXPORTS = ({}, {"limit": 2}, {"account": "Alpha"}, {"game": CARD})


@pytest.fixture
def http(private_redis_server, private_redis, archive_url):
    app = create_app({"REDIS_URL": private_redis_server.url, "TESTING": True})
    app.test_client_class = ContractClient
    return app.test_client()


@pytest.fixture
def games(private_redis, archive_url) -> GameService:
    return GameService(private_redis)


def bot_game(games: GameService, game: str) -> str:
    """A whole 2-player game of two built-in bots, played to its end here."""
    record, _, _ = games.create(game, [{"bot": "greedy"}, {"bot": "random"}], {}, seed=SEED)
    while not record.finished:
        play_bot_turns(games, record.game_id, record.version)
        record, _, _ = games.load(record.game_id)
    return record.game_id


def duel(games: GameService, made: dict[str, str], winner: str, loser: str) -> str:
    """A rated game of two accounts (both asked for it) that ends once each has moved (the
    loser resigns)."""
    both = frozenset({winner.lower(), loser.lower()})
    seats = [{"account": winner}, {"account": loser}]
    record, _, _ = games.create(CARD, seats, {}, rated=True, consenting=both)
    move_once(games, record.game_id, {0: made[winner], 1: made[loser]})
    clocks.resign(games, record.game_id, made[loser])
    return record.game_id


def walk(http, path: str, params: dict, headers: dict | None = None) -> list[bytes]:
    """Every page of a list, following its cursor, as bytes."""
    pages, cursor = [], {}
    while cursor is not None:
        page = http.get(path, query_string={**params, **cursor}, headers=headers or {})
        assert page.status_code == 200, page.json
        pages.append(page.data)
        cursor = page.json.get("next_cursor") and {"cursor": page.json["next_cursor"]}
    return pages


def every_read(http, game_ids: list[str], redis_url: str, key: str) -> dict:
    """The bytes of every read path over the games and the lists (`key`: an account's, for
    its own games)."""
    found = {}
    for game_id in game_ids:
        for path in GAME_PATHS:
            response = http.get(f"/v1/games/{game_id}{path}")
            assert response.status_code == 200, (path, response.json)
            found[game_id, path] = response.data
        html = http.get(f"/v1/games/{game_id}/replay.html")
        assert html.status_code == 200
        found[game_id, "replay.html"] = html.data
    for path, params in LISTS:
        found[path, str(params)] = walk(http, path, params)
    mine = {"Authorization": f"Bearer {key}"}
    for params in ({"limit": 1}, {"status": "finished"}):
        found["/v1/me/games", str(params)] = walk(http, "/v1/me/games", params, mine)
    for params in EXPORTS:
        response = http.get("/v1/games/export", query_string=params)
        assert response.status_code == 200
        found["export", str(params)] = response.data
    rebuilt = CliRunner().invoke(rebuild, ["--redis-url", redis_url])
    assert rebuilt.exit_code == 0, rebuilt.output
    found["ratings rebuild"] = rebuilt.output
    return found


def test_archived_games_read_byte_for_byte_as_before(
    http, games, private_redis, private_redis_server, archive
):
    accounts = AccountService(private_redis, WebhookPolicy(()))
    made = {n: accounts.sign_up(n, bot=True, webhook=None).key for n in ("Alpha", "Beta")}
    game_ids = [bot_game(games, CARD)]
    games.create(DICE, [{"name": "x"}, {"bot": "random"}], {})  # waits: stays in Redis
    kept = bot_game(games, DICE)  # finished, not due yet: stays in Redis too
    game_ids += [kept, duel(games, made, "Alpha", "Beta")]
    game_ids += [bot_game(games, DICE), duel(games, made, "Alpha", "Beta")]
    game_ids.append(duel(games, made, "Beta", "Alpha"))
    settle_due(games)
    assert compact_due(private_redis, after_s=0) == len(game_ids)
    private_redis.zrem(keys.games_to_archive(), kept)
    before = every_read(http, game_ids, private_redis_server.url, made["Alpha"])

    moved = len(game_ids) - 1  # the listings interleave Redis's games and the archive's
    assert archive_due(private_redis, archive, after_s=0) == moved

    assert archive.count() == moved
    assert list(private_redis.scan_iter(match=keys.packed_pattern())) == [
        keys.packed(kept).encode()
    ]
    assert not private_redis.zcard(keys.games_to_archive())
    fresh = create_app({"REDIS_URL": private_redis_server.url, "TESTING": True})
    fresh.test_client_class = ContractClient
    for client in (http, fresh.test_client()):  # a warm record cache, and a cold one
        assert every_read(client, game_ids, private_redis_server.url, made["Alpha"]) == before


def test_an_archived_bot_game_leaves_nothing_in_redis(games, private_redis, archive):
    game_id = bot_game(games, CARD)
    compact_due(private_redis, after_s=0)
    assert archive_due(private_redis, archive, after_s=0) == 1
    assert not list(private_redis.scan_iter(match=f"*{{{game_id}}}*"))
    assert not private_redis.hexists(keys.game_summaries(), game_id)
    for key in private_redis.scan_iter(match="keltis:index:games*"):
        assert private_redis.zscore(key, game_id) is None, key


def test_an_unreachable_archive_is_a_503_in_the_one_error_shape(
    private_redis_server, private_redis, tmp_path, monkeypatch
):
    dead = f"postgresql://keltis@/none?host={tmp_path}&port=5432&connect_timeout=1"
    monkeypatch.setenv(URL_ENV, dead)
    monkeypatch.setattr(archive_module, "POOL_TIMEOUT_S", 0.5)
    app = create_app({"REDIS_URL": private_redis_server.url, "TESTING": True})
    app.test_client_class = ContractClient
    try:
        answer = app.test_client().get("/v1/games/no-such-game-in-redis-0001")
        assert answer.status_code == 503
        assert answer.json["error"]["code"] == "storage_unavailable"
        assert "postgres" not in answer.get_data(as_text=True).lower()  # nothing of its why
    finally:
        close_archive(dead)
