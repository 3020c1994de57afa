"""The ladder over HTTP (responses held against openapi.yaml): rated games, the ratings
listing sorted by ordinal, and the ratings on an account's profile."""

from __future__ import annotations

import pytest

from api import create_app
from application.games import clocks
from application.games.settle import settle_due
from tests.api.contract import ContractClient
from tests.api.helpers import bearer
from tests.ladder.conftest import CARD, finish_bot_game, move_once, play_to_end


@pytest.fixture
def http(private_redis_server, private_redis):
    app = create_app({"REDIS_URL": private_redis_server.url, "TESTING": True})
    app.test_client_class = ContractClient
    return app.test_client()


def error_code(response) -> str:
    return response.json["error"]["code"]


def test_a_rated_game_with_a_per_game_token_seat_is_refused_with_422(http):
    body = {"game": CARD, "players": [{"name": "ann"}, {"bot": "greedy"}], "rated": True}
    response = http.post("/v1/games", json=body)
    assert response.status_code == 422
    assert error_code(response) == "unrated_seat"


def test_rated_shows_on_the_created_game_its_view_and_the_listing(http):
    body = {"game": CARD, "players": [{"open": True}, {"bot": "greedy"}], "rated": True}
    created = http.post("/v1/games", json=body)
    assert created.status_code == 201 and created.json["rated"] is True
    game_id = created.json["id"]
    assert http.get(f"/v1/games/{game_id}").json["rated"] is True
    listed = http.get("/v1/games", query_string={"limit": 1}).json["games"][0]
    assert listed["id"] == game_id and listed["rated"] is True
    joined = http.post(f"/v1/games/{game_id}/seats/0/join", json={"name": "ann"})
    assert joined.status_code == 422 and error_code(joined) == "unrated_seat"
    plain = http.post("/v1/games", json={"game": CARD, "players": [{"name": "a"}, {"name": "b"}]})
    assert plain.json["rated"] is False


def test_ratings_are_listed_by_ordinal_best_first_one_page_at_a_time(http, games, accounts):
    key = accounts.sign_up("Alpha", bot=True, webhook=None).key
    for _ in range(3):
        record, _, _ = games.create(
            CARD,
            [{"account": "Alpha"}, {"bot": "greedy"}, {"bot": "random"}],
            {},
            token=key,
            rated=True,
        )
        move_once(games, record.game_id, {0: key})  # a game in which a seat never moved is void
        clocks.resign(games, record.game_id, key)  # Alpha ranks last every time
        play_to_end(games, record.game_id)
    finish_bot_game(games, ["greedy", "random"])
    settle_due(games)
    whole = http.get("/v1/ratings", query_string={"game": CARD}).json
    assert whole["game"] == CARD and whole["next_cursor"] is None
    ordinals = [row["ordinal"] for row in whole["ratings"]]
    assert ordinals == sorted(ordinals, reverse=True) and len(ordinals) == 3
    rows = {(row["name"], row["account"]): row for row in whole["ratings"]}
    assert rows[("Alpha", True)]["games"] == 3 and rows[("greedy", False)]["games"] == 4
    assert whole["ratings"][-1]["name"] == "Alpha"
    paged, cursor = [], {}
    while cursor is not None:
        page = http.get("/v1/ratings", query_string={"game": CARD, "limit": 2, **cursor})
        paged += page.json["ratings"]
        cursor = page.json["next_cursor"] and {"cursor": page.json["next_cursor"]}
    assert paged == whole["ratings"]
    profile = http.get("/v1/accounts/alpha").json
    assert profile["ratings"][CARD] == {
        key: rows[("Alpha", True)][key]
        for key in ("mu", "sigma", "ordinal", "games", "rating", "provisional")
    }
    own = http.get("/v1/me", headers=bearer(key)).json
    assert own["ratings"] == profile["ratings"]


def test_ratings_say_bot_as_the_profile_does(http, games, accounts):
    """A bot account's rating said `bot: false` beside its profile's `bot: true`."""
    key = accounts.sign_up("Beta", bot=True, webhook=None).key
    accounts.sign_up("Carol", bot=False, webhook=None)
    record, _, _ = games.create(
        CARD, [{"account": "Beta"}, {"open": True}, {"bot": "greedy"}], {}, token=key, rated=True
    )
    people = accounts.sign_up("Dora", bot=False, webhook=None).key
    joined = http.post(f"/v1/games/{record.game_id}/seats/1/join", json={}, headers=bearer(people))
    assert joined.status_code == 200, joined.json
    move_once(games, record.game_id, {0: key, 1: people})
    clocks.resign(games, record.game_id, key)
    clocks.resign(games, record.game_id, people)  # the fallback bots play both seats
    play_to_end(games, record.game_id)
    settle_due(games)
    rows = http.get("/v1/ratings", query_string={"game": CARD}).json["ratings"]
    for row in rows:
        if row["account"]:
            assert row["bot"] is http.get(f"/v1/accounts/{row['name']}").json["bot"], row
    shown = {row["name"]: (row["account"], row["bot"]) for row in rows}
    assert shown == {"Beta": (True, True), "Dora": (True, False), "greedy": (False, True)}


def test_the_ratings_of_an_unknown_game_are_a_422_of_a_missing_one_a_400(http):
    assert error_code(http.get("/v1/ratings", query_string={"game": "chess"})) == "unknown_game"
    assert http.get("/v1/ratings").status_code == 400
    empty = http.get("/v1/ratings", query_string={"game": "keltis-dice"}).json
    assert empty == {"game": "keltis-dice", "ratings": [], "next_cursor": None}


def test_a_profile_without_rated_games_has_no_ratings(http, accounts):
    accounts.sign_up("Newcomer", bot=False, webhook=None)
    assert http.get("/v1/accounts/newcomer").json["ratings"] == {}
