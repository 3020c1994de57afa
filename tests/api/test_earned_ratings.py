"""A rating moves only by a game both sides consented to and both sides played: every way of
getting a rated result without that, tried over HTTP against the real stack (gunicorn, a
worker with its clocks, settle and match threads, Redis), leaves no ladder entry; a game
both sides agreed to and played is rated (so the absences are not the settle thread's)."""

from __future__ import annotations

import secrets

import pytest

from store import keys
from store.ladder import LadderStore
from tests.api.helpers import bearer, move_each_once_over_http
from tests.workers.processes import wait_for

pytestmark = pytest.mark.redis

CARD, DICE = "keltis-card", "keltis-dice"
FAST = {"move_seconds": 1, "bank_seconds": 0, "fallback": "random", "max_timeouts": 1}


@pytest.fixture
def stack(live_stack, session, redis_client):
    """The live stack's base URL, a contract-checked session and its Redis."""
    return live_stack.base_url, session, redis_client


def sign_up(http, base: str, bot: bool = True) -> dict:
    made = http.post(
        f"{base}/v1/accounts", json={"name": f"er{secrets.token_hex(5)}", "bot": bot}, timeout=10
    )
    assert made.status_code == 201, made.text
    return made.json()


def create(http, base: str, body: dict, key: str | None = None):
    headers = bearer(key) if key else {}
    return http.post(f"{base}/v1/games", json=body, headers=headers, timeout=10)


def unrated(redis_client, http, base: str, game_ids: list[str], accounts: list[dict]) -> None:
    """None of these games is in the ladder once settled, and no account has a rating."""
    ladder = LadderStore(redis_client)

    def settled() -> bool:
        return all(redis_client.zscore(keys.games_to_settle(), g) is None for g in game_ids)

    wait_for(settled, 30, "the games settled")
    assert ladder.sequence_of(game_ids) == [None] * len(game_ids)
    for account in accounts:
        profile = http.get(f"{base}/v1/accounts/{account['name']}", timeout=10).json()
        assert profile["ratings"] == {}, (account["name"], profile["ratings"])


def finished(http, base: str, game_id: str) -> dict:
    def over():
        game = http.get(f"{base}/v1/games/{game_id}", timeout=10).json()
        return game if game["status"] in ("finished", "cancelled") else None

    return wait_for(over, 60, f"game {game_id} over")


def two_accounts_game(http, base: str, first: dict, second: dict, **body) -> str:
    """A rated game `first` creates (its key) and `second` joins (its key); its id."""
    players = [{"account": first["name"]}, {"open": True}]
    made = create(
        http, base, {"game": CARD, "players": players, "rated": True, **body}, first["key"]
    )
    assert made.status_code == 201, made.text
    game_id = made.json()["id"]
    url = f"{base}/v1/games/{game_id}/seats/1/join"
    assert http.post(url, json={}, headers=bearer(second["key"]), timeout=10).status_code == 200
    return game_id


def test_a_rating_moves_only_by_a_game_both_sides_consented_to_and_played(stack):
    base, http, redis_client = stack
    farm, victim, ghost = sign_up(http, base), sign_up(http, base), sign_up(http, base)
    refused = []

    # 1. forced seats: another's account (a bot account too), with the farmer's key or none
    forced = [
        ([{"account": farm["name"]}, {"account": victim["name"]}], farm["key"], 403),
        ([{"bot": "random"}, {"account": victim["name"]}], None, 403),
        ([{"bot": "greedy"}, {"bot": "random"}], farm["key"], 422),  # no one agreed
    ]
    for players, key, status in forced:
        answer = create(http, base, {"game": CARD, "players": players, "rated": True}, key)
        assert answer.status_code == status, answer.text
        code = {403: "seat_needs_consent", 422: "rated_needs_account"}[status]
        assert answer.json()["error"]["code"] == code
        refused.append(answer)

    # 2. an abort before every seat moved: cancelled, void
    early = two_accounts_game(http, base, farm, victim)
    cancel = http.post(f"{base}/v1/games/{early}/cancel", headers=bearer(farm["key"]))
    assert cancel.status_code == 200 and cancel.json()["status"] == "cancelled"

    # 3. a loser cannot cancel once both moved: 409, the game goes on to a result
    late = two_accounts_game(http, base, farm, victim)
    move_each_once_over_http(base, late, {0: farm["key"], 1: victim["key"]}, http)
    cancel = http.post(f"{base}/v1/games/{late}/cancel", headers=bearer(farm["key"]))
    assert cancel.status_code == 409 and cancel.json()["error"]["code"] == "too_late_to_abort"

    # 4. a seat that never moved: it times out and forfeits before its first move (a ghost
    # that accepted a challenge; a bot game of its own creator): aborted, no one's win
    offer = {"game": CARD, "opponents": [{"account": ghost["name"]}], "rated": True}
    made = http.post(f"{base}/v1/challenges", json={**offer, "clock": FAST},
                     headers=bearer(farm["key"]), timeout=10)  # fmt: skip
    assert made.status_code == 201, made.text
    accepted = http.post(f"{base}/v1/challenges/{made.json()['id']}/accept",
                         headers=bearer(ghost["key"]), timeout=10)  # fmt: skip
    assert accepted.status_code == 200, accepted.text
    ghosted = accepted.json()["game_id"]
    body = {"game": CARD, "players": [{"bot": "greedy"}, {"account": farm["name"]}]}
    idle = create(http, base, {**body, "rated": True, "clock": FAST}, farm["key"])
    assert idle.status_code == 201, idle.text
    idle = idle.json()["id"]
    for game_id in (ghosted, idle):
        over = finished(http, base, game_id)
        assert over["status"] == "finished" and over["rated"] is True

    # 5. a rated two-board match: its first game aborted before any move voids it
    made = http.post(
        f"{base}/v1/challenges",
        json={"game": DICE, "opponents": [{"account": victim["name"]}], "rated": True,
              "match": "two_boards"},
        headers=bearer(farm["key"]), timeout=10,
    )  # fmt: skip
    accepted = http.post(f"{base}/v1/challenges/{made.json()['id']}/accept",
                         headers=bearer(victim["key"]), timeout=10).json()  # fmt: skip
    match_id = accepted["match_id"]
    cancel = http.post(f"{base}/v1/games/{accepted['game_id']}/cancel", headers=bearer(farm["key"]))
    assert cancel.status_code == 200, cancel.text

    def match_over():
        match = http.get(f"{base}/v1/matches/{match_id}", timeout=10).json()
        return match if match["status"] != "running" else None

    assert wait_for(match_over, 30, "the match over")["status"] == "void"

    unrated(redis_client, http, base, [early, ghosted, idle, match_id], [victim, ghost])
    # the one game both agreed to and both played is rated, once its loser resigns
    resigned = http.post(f"{base}/v1/games/{late}/resign", headers=bearer(farm["key"]))
    assert resigned.status_code == 200 and resigned.json()["status"] == "finished"
    ladder = LadderStore(redis_client)
    wait_for(lambda: ladder.sequence_of([late]) != [None], 30, "the played game rated")
    assert LadderStore(redis_client).sequence_of([early, ghosted, idle, match_id]) == [None] * 4
