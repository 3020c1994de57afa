"""Levels over HTTP: `GET /v1/bots` shows each level with its rating
and strength word, and a level seats like any bot name, in a game and a tournament."""

from __future__ import annotations

import pytest

from application.ladder.levels import calibration
from application.operations import jobs
from domain.levels import level_names, recipes
from ladder.display import shown_rating
from store.tournaments.records import TournamentStore
from tournaments import seeds
from tournaments.spec import make_spec

CARD = "keltis-card"


@pytest.mark.parametrize("game", [CARD, "keltis-dice"])
def test_bots_lists_every_level_with_its_rating_and_strength_word(client, game):
    games = {g["game"]: g for g in client.get("/v1/bots").json["games"]}
    shown = games[game]["levels"]
    assert [level["name"] for level in shown] == level_names()
    assert set(level_names()) <= set(games[game]["bots"])
    rated = calibration()["games"].get(game, {})
    for level in shown:
        assert level["recipe"] == recipes(game)[level["level"]]
        assert level["strength"]
        row = rated.get(level["name"])
        if row:
            shown = shown_rating(row["mu"] - 3 * row["sigma"])  # a player's scale
            assert level["rating"] == shown and level["games"] == row["games"]
            assert level["mu"] == row["mu"] and level["sigma"] == row["sigma"]
        else:
            assert level["rating"] is None and level["games"] == 0


def test_the_shipped_calibration_rates_every_level_of_both_games_in_order():
    """Each level is rated above the one below it (a person's "level 4" is stronger than
    their "level 2"), on the recipes the service plays now."""
    shipped = calibration()
    for game in (CARD, "keltis-dice"):
        rows = shipped["games"][game]
        assert set(rows) == set(level_names())
        assert all(row["games"] > 0 and row["sigma"] > 0 for row in rows.values())
        ratings = [rows[name]["mu"] for name in level_names()]
        assert ratings == sorted(ratings), (game, ratings)
        made = {f"level:{level}": name for level, name in recipes(game).items()}
        assert shipped["recipes"][game] == made


def test_a_level_seats_in_a_game(client):
    players = [{"name": "ann"}, {"bot": "level:3"}]
    made = client.post("/v1/games", json={"game": CARD, "players": players})
    assert made.status_code == 201, made.json
    assert made.json["players"][1]["bot"] == "level:3"
    body = {"game": CARD, "players": [players[0], {"bot": "level:9"}]}
    unknown = client.post("/v1/games", json=body)
    assert unknown.status_code in (400, 422)


@pytest.mark.parametrize("game", [CARD, "keltis-dice"])
def test_R3_a_level_as_a_clocks_fallback_is_logged_as_its_recipe(client, game):
    """R3: a replay re-derives the fallback's moves by the logged name, so the log holds the
    level's recipe in that game, not the level (whose recipe may change later)."""
    clock = {"move_seconds": 60, "fallback": "level:2"}
    body = {"game": game, "players": [{"name": "ann"}, {"bot": "greedy"}], "clock": clock}
    made = client.post("/v1/games", json=body)
    assert made.status_code == 201, made.json
    first = client.get(f"/v1/games/{made.json['id']}/events?after=0").json["events"][0]
    assert first["event"]["clock"]["fallback"] == recipes(game)[2]


def test_levels_play_a_tournament(redis_client, monkeypatch, redis_url):
    monkeypatch.setenv("REDIS_URL", redis_url)
    spec = make_spec(CARD, ["level:1", "level:2"], 2, 2, "levels-tournament", games_per_job=2)
    tid = seeds.new_tournament_id()
    store = TournamentStore(redis_client)
    store.create(tid, spec)
    assert jobs.play_tournament_games(tid, 0)["recorded"] == [0, 1]
    outcomes = store.outcomes(tid)
    assert len(outcomes) == 2
    assert "finished_at" in store.meta(tid)
