"""Tokens: bound to one game and seat, compared in constant time; spectators cannot move."""

from __future__ import annotations

import contextlib
import hashlib

import pytest

from api import create_app
from application.accounts.errors import Unauthenticated
from store.games import tokens
from tests.api.contract import ContractClient
from tests.reliability.timing import timing_ratio

ATTEMPTS = 5
CARD = {"game": "keltis-card", "players": [{"name": "ann"}, {"name": "bea"}]}


@pytest.fixture
def client(redis_url):
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, "RATELIMIT_ENABLED": False})
    app.test_client_class = ContractClient
    return app.test_client()


def new_game(client) -> tuple[str, list[str]]:
    created = client.post("/v1/games", json=CARD).get_json()
    return created["id"], [seat["token"] for seat in created["seats"]]


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_a_token_of_one_game_is_refused_on_another_with_403(client):
    first, first_tokens = new_game(client)
    second, _ = new_game(client)
    for path in (f"/v1/games/{second}", f"/v1/games/{second}/moves", f"/v1/games/{second}/events"):
        response = client.get(path, headers=bearer(first_tokens[0]))
        assert response.status_code == 403, path
        assert response.get_json()["error"]["code"] == "token_of_another_game"
    move = client.post(
        f"/v1/games/{second}/moves", json={"action": "stop"}, headers=bearer(first_tokens[0])
    )
    assert move.status_code == 403
    assert client.get(f"/v1/games/{first}", headers=bearer(first_tokens[0])).status_code == 200


def test_a_spectator_cannot_move_401(client):
    game_id, tokens_ = new_game(client)
    legal = client.get(f"/v1/games/{game_id}/moves", headers=bearer(tokens_[0])).get_json()
    response = client.post(f"/v1/games/{game_id}/moves", json=legal["moves"][0])
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == "Bearer"
    assert set(response.get_json()["error"]) == {"code", "message", "rule"}
    assert client.get(f"/v1/games/{game_id}").get_json()["version"] == legal["version"]


def test_a_token_of_the_right_game_but_another_seat_cannot_move_for_it(client):
    game_id, tokens_ = new_game(client)
    forged = tokens_[1].replace(f"{game_id}.1.", f"{game_id}.0.")
    response = client.get(f"/v1/games/{game_id}/moves", headers=bearer(forged))
    assert response.status_code == 401


def test_token_check_compares_sha256_digests_with_compare_digest(monkeypatch):
    seen = []

    def spy(a, b):
        seen.append((a, b))
        return a == b

    monkeypatch.setattr(tokens.hmac, "compare_digest", spy)
    token = tokens.new_token("g" * 22, 1)
    stored = tokens.digest(token)
    claim = tokens.parse(token[:-1] + ("A" if token[-1] != "A" else "B"))
    assert tokens.matches(claim, stored) is False
    assert seen == [(hashlib.sha256(claim.token.encode()).hexdigest(), stored)]


def _seat_of_timer(service, game_id, hashes, token):
    def check():
        with contextlib.suppress(Unauthenticated):
            service.seat_of(game_id, token, hashes)

    return check


def _near_misses(token: str) -> tuple[str, str]:
    """A token wrong from the first secret character on, and one wrong only at the end."""
    head, secret = token.rsplit(".", 1)
    flip = {c: ("A" if c != "A" else "B") for c in secret}
    wrong_first = f"{head}.{flip[secret[0]]}{secret[1:]}"
    wrong_last = f"{head}.{secret[:-1]}{flip[secret[-1]]}"
    return wrong_first, wrong_last


def test_token_check_timing_does_not_depend_on_how_much_of_the_token_is_right(client):
    from application.games.service import GameService

    game_id, tokens_ = new_game(client)
    service = GameService.__new__(GameService)  # seat_of of the same game needs no Redis
    hashes = {seat: tokens.digest(token) for seat, token in enumerate(tokens_)}
    wrong_first, wrong_last = _near_misses(tokens_[0])
    ratios = []
    for _ in range(ATTEMPTS):  # a busy machine can skew one measurement; a leak skews all
        ratios.append(
            timing_ratio(
                _seat_of_timer(service, game_id, hashes, wrong_first),
                _seat_of_timer(service, game_id, hashes, wrong_last),
            )
        )
        if 0.9 < ratios[-1] < 1.1:
            return
    pytest.fail(f"token checks take longer the more of the token is right: {ratios}")


def test_the_timing_harness_does_see_an_early_exit_compare():
    """The harness has the power to catch a leaky compare (so the test above can fail)."""
    secret = "s" * 200

    def leaky(candidate: str) -> bool:
        return all(a == b for a, b in zip(candidate, secret, strict=True))

    ratio = timing_ratio(lambda: leaky("x" + secret[1:]), lambda: leaky(secret[:-1] + "x"))
    assert ratio > 1.5, ratio
