"""An account's public games and rating history over HTTP (responses held against
openapi.yaml): the history is the ladder fold's steps, a rebuild gives it again, both lists
page by cursor, an unknown account is a 404 in the one error shape, and no sealed game or
hidden field shows."""

from __future__ import annotations

import pytest

from api import create_app
from application.games import clocks
from application.games.settle import settle_due
from ladder.history import fold_steps
from store import keys
from store.core.cursor import Position
from store.ladder.records import LadderStore
from tests.api.contract import ContractClient
from tests.ladder.conftest import CARD, DICE, move_once


@pytest.fixture
def http(private_redis_server, private_redis):
    app = create_app({"REDIS_URL": private_redis_server.url, "TESTING": True})
    app.test_client_class = ContractClient
    return app.test_client()


def _duel(games, made: dict[str, str], winner: str, loser: str, game: str = CARD) -> str:
    """A rated game of two accounts (both asked for it) that ends as soon as each has moved
    once: the loser resigns; its id."""
    both = frozenset({winner.lower(), loser.lower()})
    seats = [{"account": winner}, {"account": loser}]
    record, _, _ = games.create(game, seats, {}, rated=True, consenting=both)
    move_once(games, record.game_id, {0: made[winner], 1: made[loser]})
    clocks.resign(games, record.game_id, made[loser])
    return record.game_id


def _walk(http, path: str, **params) -> list[dict]:
    """Every page of a list, following next_cursor; the pages' bodies."""
    pages, cursor = [], {}
    while cursor is not None:
        page = http.get(path, query_string={**params, **cursor})
        assert page.status_code == 200, page.json
        pages.append(page.json)
        cursor = page.json["next_cursor"] and {"cursor": page.json["next_cursor"]}
    return pages


@pytest.fixture
def played(games, accounts):
    """Alpha, Beta and Gamma with rated games of both types, folded a few at a time."""
    made = {n: accounts.sign_up(n, bot=True, webhook=None).key for n in ("Alpha", "Beta", "Gamma")}
    plan = [("Alpha", "Beta"), ("Beta", "Alpha"), ("Gamma", "Alpha"), ("Alpha", "Gamma")] * 2
    for n, (winner, loser) in enumerate(plan):
        _duel(games, made, winner, loser, game=DICE if n == 5 else CARD)
        if n % 3 == 2:
            settle_due(games)  # incremental folds, several entries at a time
    settle_due(games)
    return made


def _history(http, name: str, game: str, limit: int) -> list[dict]:
    path = f"/v1/accounts/{name}/ratings/history"
    pages = _walk(http, path, game=game, limit=limit)
    assert all(len(p["points"]) <= limit for p in pages)
    return [point for page in pages for point in page["points"]]


def test_rating_history_is_the_steps_of_the_ladders_fold(http, games, played):
    ladder = LadderStore(games.client)
    assert ladder.length() == ladder.cursor() == 8
    _, _, steps = fold_steps(ladder.entries(CARD), 1)
    expected = [
        point.shown()
        for (game, participant), point in steps
        if (game, participant) == (CARD, "account:alpha")
    ][::-1]  # newest first
    assert len(expected) == 7  # Alpha played 7 card games and 1 dice game
    shown = _history(http, "ALPHA", CARD, limit=3)
    assert shown == expected
    assert [p["games"] for p in shown] == list(range(7, 0, -1))
    profile = http.get("/v1/accounts/alpha").json["ratings"][CARD]
    keys = ("mu", "sigma", "ordinal", "games", "rating", "provisional")
    assert {k: shown[0][k] for k in keys} == profile
    dice = _history(http, "alpha", DICE, limit=100)
    assert len(dice) == 1 and dice[0]["games"] == 1
    assert http.get("/v1/ratings", query_string={"game": CARD}).json["ratings"]


def test_a_rebuild_gives_the_same_history_and_repairs_a_damaged_one(http, games, played):
    before = {name: _history(http, name, CARD, 100) for name in ("alpha", "beta", "gamma")}
    ladder = LadderStore(games.client)
    clean = ladder.rebuild()
    assert (clean.history_points, clean.history_differing) == (16, 0)
    assert {name: _history(http, name, CARD, 100) for name in before} == before
    games.client.delete(keys.ladder_history(CARD, "account:beta"))
    games.client.zadd(keys.ladder_history(CARD, "account:gamma"), {b'{"seq":1}': 1})
    games.client.zadd(keys.ladder_history(CARD, "account:nobody"), {b'{"seq":2}': 2})
    repaired = ladder.rebuild()
    assert repaired.history_differing == len(before["beta"]) + 2
    assert {name: _history(http, name, CARD, 100) for name in before} == before
    assert not games.client.exists(keys.ladder_history(CARD, "account:nobody"))


def test_account_games_page_newest_first_with_public_fields(http, games, played):
    whole = http.get("/v1/accounts/beta/games", query_string={"limit": 100}).json
    assert whole["name"] == "Beta" and whole["next_cursor"] is None
    ids = [g["id"] for g in whole["games"]]
    assert len(ids) == 4 and all(g["status"] == "finished" for g in whole["games"])
    created = [g["created_at"] for g in whole["games"]]
    assert created == sorted(created, reverse=True)
    pages = _walk(http, "/v1/accounts/Beta/games", limit=1)
    assert [g["id"] for p in pages for g in p["games"]] == ids
    finished = _walk(http, "/v1/accounts/beta/games", status="finished", limit=3)
    assert [g["id"] for p in finished for g in p["games"]] == ids
    assert http.get("/v1/accounts/beta/games", query_string={"status": "active"}).json[
        "games"
    ] == []  # fmt: skip


def test_account_games_list_games_in_play_and_leave_out_waiting_ones(http, games, accounts):
    accounts.sign_up("Dora", bot=True, webhook=None)
    dora = frozenset({"dora"})  # Dora asked for these games (a trusted caller's pairing)
    playing, _, _ = games.create(
        CARD, [{"account": "Dora"}, {"bot": "greedy"}], {}, consenting=dora
    )
    games.create(CARD, [{"account": "Dora"}, {"open": True}], {}, consenting=dora)  # not listed
    listed = http.get("/v1/accounts/dora/games").json["games"]
    assert [g["id"] for g in listed] == [playing.game_id]
    active = http.get("/v1/accounts/dora/games", query_string={"status": "active"}).json
    assert [g["id"] for g in active["games"]] == [playing.game_id]


def test_R2_a_sealed_game_is_neither_listed_nor_named_by_a_cursor(http, games, accounts):
    accounts.sign_up("Eve", bot=True, webhook=None)
    seats, eve = [{"account": "Eve"}, {"bot": "greedy"}], frozenset({"eve"})
    made = [games.create(CARD, seats, {}, consenting=eve)[0] for _ in range(5)]
    oldest = min(made, key=lambda r: (r.created_at, r.game_id))
    hidden = [oldest, *[r for r in made if r is not oldest][1:3]]
    sealed = {r.game_id for r in hidden}
    for record in hidden:  # kept out of every listing, as a sealed deal's games are
        games.committer.write_index(games.load(record.game_id)[0], listed=False)
    assert not {g["id"] for g in http.get("/v1/games").json["games"]} & sealed
    pages = _walk(http, "/v1/accounts/eve/games", limit=1)
    shown = [g["id"] for p in pages for g in p["games"]]
    newest_first = sorted(made, key=lambda r: (r.created_at, r.game_id), reverse=True)
    assert shown == [r.game_id for r in newest_first if r.game_id not in sealed]
    for page in pages:
        if page["next_cursor"]:
            assert Position.decode(page["next_cursor"]).member not in sealed
        for game in page["games"]:
            assert set(game) <= {
                "id", "game", "status", "version", "to_move", "players", "rated",
                "created_at", "updated_at",
            }  # fmt: skip


def test_an_unknown_account_is_a_404_in_the_one_error_shape(http):
    for path in ("/v1/accounts/nobody/games", "/v1/accounts/no.body/games"):
        answer = http.get(path)
        assert answer.status_code == 404
        assert answer.json["error"]["code"] == "account_not_found"
    answer = http.get("/v1/accounts/nobody/ratings/history", query_string={"game": CARD})
    assert answer.status_code == 404 and answer.json["error"]["code"] == "account_not_found"


def test_history_of_an_unknown_game_is_a_422_and_a_bad_query_a_400(http, accounts):
    accounts.sign_up("Fay", bot=False, webhook=None)
    path = "/v1/accounts/fay/ratings/history"
    assert http.get(path, query_string={"game": "chess"}).json["error"]["code"] == "unknown_game"
    assert http.get(path).status_code == 400
    assert http.get(path, query_string={"game": CARD, "cursor": "0"}).status_code == 400
    assert http.get("/v1/accounts/fay/games", query_string={"cursor": "x"}).status_code == 400
    empty = http.get(path, query_string={"game": CARD}).json
    assert empty == {"name": "Fay", "game": CARD, "points": [], "next_cursor": None}
