"""A rating farm of two accounts, over HTTP (responses held against openapi.yaml) on a real
Redis: rated challenges between accounts A and B, each resigned by A right after both moved.
B's gain shrinks game by game and stays bounded (each repeated game counts 1/k), the 11th
rated game of the pair that day is created unrated, and the operator is told: the
`keltis_suspicious_gains_total` counter grows and `keltis ratings suspicious` lists the pair."""

from __future__ import annotations

import itertools

import pytest
from click.testing import CliRunner

from api import create_app
from application.games.service import GameService
from application.games.settle import settle_due
from application.metrics.counters import REGISTRY
from cli.main import cli
from ladder.pairs import PAIR_DAILY_LIMIT
from tests.api.contract import ContractClient
from tests.api.helpers import bearer
from tests.ladder.conftest import CARD


@pytest.fixture
def http(private_redis_server, private_redis):
    app = create_app({"REDIS_URL": private_redis_server.url, "TESTING": True})
    app.test_client_class = ContractClient
    return app.test_client()


def sign_up(http, name: str) -> str:
    made = http.post("/v1/accounts", json={"name": name, "bot": False})
    assert made.status_code == 201, made.json
    return made.json["key"]


def challenged_game(http, challenger: str, invitee: str, invitee_name: str) -> dict:
    """A rated challenge from one account that the other accepts; the game's view."""
    offer = {"game": CARD, "opponents": [{"account": invitee_name}], "rated": True}
    made = http.post("/v1/challenges", json=offer, headers=bearer(challenger))
    assert made.status_code == 201, made.json
    accepted = http.post(f"/v1/challenges/{made.json['id']}/accept", headers=bearer(invitee))
    assert accepted.status_code == 200, accepted.json
    return http.get(f"/v1/games/{accepted.json['game_id']}").json


def move_each_once(http, game_id: str, keys: dict[int, str]) -> None:
    """First legal moves, each seat by its key, until both seats moved (else: aborted)."""
    url, moved = f"/v1/games/{game_id}", set()
    while moved != set(keys):
        seat = http.get(url).json["to_move"]
        move = http.get(f"{url}/moves", headers=bearer(keys[seat])).json["moves"][0]
        answer = http.post(f"{url}/moves", json=move, headers=bearer(keys[seat]))
        assert answer.status_code == 200, answer.json
        moved.add(seat)


def farmed(http, games: GameService, a_key: str, b_key: str) -> dict:
    """One farmed game: A challenges B, both move once, A resigns; settled. Its view."""
    game = challenged_game(http, a_key, b_key, "FarmB")
    seat_of = {p["account"]: n for n, p in enumerate(game["players"])}
    move_each_once(http, game["id"], {seat_of["FarmA"]: a_key, seat_of["FarmB"]: b_key})
    resigned = http.post(f"/v1/games/{game['id']}/resign", headers=bearer(a_key))
    assert resigned.status_code == 200 and resigned.json["status"] == "finished"
    settle_due(games)
    return game


def b_rating(http) -> dict:
    return http.get("/v1/accounts/FarmB").json["ratings"].get(CARD, {"ordinal": 0.0, "games": 0})


def suspicious_count() -> float:
    return REGISTRY.get_sample_value("keltis_suspicious_gains_total", {"game": CARD}) or 0.0


def test_a_farm_of_two_accounts_gains_less_each_game_is_capped_and_reported(
    http, private_redis, private_redis_server
):
    games = GameService(private_redis)
    a_key, b_key = sign_up(http, "FarmA"), sign_up(http, "FarmB")
    counted = suspicious_count()

    ordinals = [0.0]
    for _ in range(6):
        assert farmed(http, games, a_key, b_key)["rated"] is True
        ordinals.append(b_rating(http)["ordinal"])
    gains = [after - before for before, after in itertools.pairwise(ordinals)]
    assert all(gain > 0 for gain in gains)
    assert all(later < earlier for earlier, later in itertools.pairwise(gains))
    assert all(gain <= gains[0] / k for k, gain in enumerate(gains, start=1))
    assert ordinals[-1] < 7.5  # unweighted, the same six games lift B to about 12.9
    assert suspicious_count() - counted == 4  # the 3rd to the 6th quick win

    for _ in range(PAIR_DAILY_LIMIT - 6):
        assert farmed(http, games, a_key, b_key)["rated"] is True
    capped = b_rating(http)
    assert capped["games"] == PAIR_DAILY_LIMIT
    eleventh = farmed(http, games, a_key, b_key)
    assert eleventh["rated"] is False  # created unrated: the pair's daily limit
    assert b_rating(http) == capped
    assert suspicious_count() - counted == PAIR_DAILY_LIMIT - 2

    listed = CliRunner().invoke(
        cli, ["ratings", "suspicious", "--redis-url", private_redis_server.url]
    )
    assert listed.exit_code == 0, listed.output
    header, row, no_starts = listed.output.strip().splitlines()
    assert no_starts == "no no-starts in the last 24 h"  # both moved in every game
    assert header.split() == ["game", "winner", "loser", "quick_wins", "games", "gained"]
    game, winner, loser, wins, played, gained = row.split()
    assert (game, winner, loser) == (CARD, "farmb", "farma")
    assert (int(wins), int(played)) == (PAIR_DAILY_LIMIT, PAIR_DAILY_LIMIT)
    assert float(gained) == pytest.approx(capped["ordinal"], abs=0.01)

    # the weights come from the ladder's own entries: a re-fold reproduces them exactly
    rebuilt = CliRunner().invoke(
        cli, ["ratings", "rebuild", "--redis-url", private_redis_server.url]
    )
    assert rebuilt.exit_code == 0, rebuilt.output
    assert "0 stored ratings differed" in rebuilt.output and " 0 repaired" in rebuilt.output


def test_no_suspicious_gains_are_listed_when_there_are_none(private_redis, private_redis_server):
    listed = CliRunner().invoke(
        cli, ["ratings", "suspicious", "--redis-url", private_redis_server.url]
    )
    assert listed.exit_code == 0, listed.output
    assert listed.output.strip().splitlines() == [
        "no suspicious gains in the last 24 h",
        "no no-starts in the last 24 h",
    ]
