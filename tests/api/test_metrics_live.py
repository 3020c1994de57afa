"""GET /metrics of the real stack (gunicorn with two web processes and a `keltis worker`,
sharing one multiprocess directory) scraped during a game: the requests of both web
processes, the moves appended by the web and by the worker, and the worker's bot turns
are all counted."""

from __future__ import annotations

import os

import pytest
import requests

from tests.api.helpers import bearer
from tests.support.metrics_text import label_values, samples, total, value
from tests.support.ports import free_port
from tests.workers.processes import served, wait_for

pytestmark = pytest.mark.redis

TOKEN = "live-metrics-" + "token"
PERSON_QUEUE = "keltis-bots-person"


def _scrape(http: requests.Session, base: str) -> dict:
    answer = http.get(base + "/metrics", headers=bearer(TOKEN), timeout=10)
    assert answer.status_code == 200, answer.text
    return samples(answer.text)


def _play_until_the_bot_moved(http, base: str, created: dict, bot_turns: int) -> int:
    """Play seat 0 (first legal move each time) until the bot has moved `bot_turns` times,
    waiting for it with long polls; the number of moves seat 0 posted."""
    game_id, token = created["id"], created["seats"][0]["token"]
    posted_moves, waited = 0, 0
    while waited < bot_turns:
        game = http.get(f"{base}/v1/games/{game_id}", headers=bearer(token), timeout=10).json()
        assert game["status"] != "finished"
        if game["to_move"] != 0:
            http.get(
                f"{base}/v1/games/{game_id}/events?after={game['version']}&wait=5",
                headers=bearer(token),
                timeout=15,
            )
            after = http.get(f"{base}/v1/games/{game_id}", timeout=10).json()
            waited += after["to_move"] == 0
            continue
        legal = http.get(f"{base}/v1/games/{game_id}/moves", headers=bearer(token), timeout=10)
        move = legal.json()["moves"][0]
        posted = http.post(
            f"{base}/v1/games/{game_id}/moves", json=move, headers=bearer(token), timeout=10
        )
        assert posted.status_code == 200, posted.text
        posted_moves += 1
    return posted_moves


def test_a_scrape_during_a_game_sees_web_and_worker_counters_move(redis_url):
    env = {"KELTIS_METRICS_TOKEN": TOKEN, "KELTIS_RATE_LIMIT": "off"}
    with served(redis_url, env=env, web_workers=2) as stack, requests.Session() as http:
        base = stack.base_url
        directory = stack.metrics_dir
        assert directory is not None and directory.is_dir()
        assert http.get(base + "/metrics", timeout=10).status_code == 401
        before = _scrape(http, base)
        players = [{"name": "ann"}, {"name": "rob", "bot": "random"}]
        created = http.post(
            base + "/v1/games", json={"game": "keltis-card", "players": players}, timeout=10
        ).json()
        made = _play_until_the_bot_moved(http, base, created, bot_turns=2)

        def bot_turns_counted():
            found = _scrape(http, base)
            ran = value(found, "keltis_bot_turn_seconds_count", queue=PERSON_QUEUE)
            return (
                found
                if ran - value(before, "keltis_bot_turn_seconds_count", queue=PERSON_QUEUE) >= 2
                else None
            )

        after = wait_for(bot_turns_counted, 30, "the worker's bot turns in /metrics")
        files = os.listdir(directory)

    posts = {"route": "/v1/games/<game_id>/moves", "method": "POST", "status": "200"}
    name = "keltis_http_requests_total"
    assert value(after, name, **posts) - value(before, name, **posts) == made
    created_ = {"route": "/v1/games", "method": "POST", "status": "201"}
    assert value(after, name, **created_) - value(before, name, **created_) == 1
    # every entry of this game: its creation's and the person's moves (web), the bot's (worker)
    appended = "keltis_moves_appended_total"
    grown = value(after, appended, game="keltis-card") - value(before, appended, game="keltis-card")
    assert grown >= created["version"] + made + 2
    played = "keltis_bot_turns_total"
    assert value(after, played, queue=PERSON_QUEUE) - value(before, played, queue=PERSON_QUEUE) >= 2
    waited = "keltis_bot_turn_wait_seconds_count"
    assert value(after, waited, queue=PERSON_QUEUE) - value(before, waited, queue=PERSON_QUEUE) >= 2
    assert total(after, "keltis_http_request_seconds_count") > total(
        before, "keltis_http_request_seconds_count"
    )
    assert value(after, "keltis_games", status="active") >= 1
    assert PERSON_QUEUE in label_values(after, "keltis_queue_depth", "queue")
    assert total(after, "keltis_open_long_polls") == 0  # every wait has ended
    # one file per process and kind: two web processes and the worker wrote their own
    pids = {name.rsplit("_", 1)[-1] for name in files if name.startswith("counter_")}
    assert len(pids) >= 2, files
    assert not directory.exists()  # the stack removed its directory when it stopped


def test_the_metrics_bind_of_the_real_stack_serves_metrics_alone(redis_url):
    """KELTIS_METRICS_BIND under gunicorn: a second listener of the web processes that
    serves /metrics (no token needed there) and nothing else; the API's own address does
    not serve /metrics."""
    metrics_port = free_port()
    env = {"KELTIS_METRICS_BIND": f"127.0.0.1:{metrics_port}", "KELTIS_RATE_LIMIT": "off"}
    with served(redis_url, env=env) as stack, requests.Session() as http:
        there = f"http://127.0.0.1:{metrics_port}"
        scraped = http.get(there + "/metrics", timeout=10)
        assert scraped.status_code == 200
        assert "keltis_http_requests_total" in scraped.text
        assert http.get(there + "/healthz", timeout=10).status_code == 404
        on_api = http.get(stack.base_url + "/metrics", timeout=10)
        assert on_api.status_code == 404 and on_api.json()["error"]["code"] == "not_found"
        assert http.get(stack.base_url + "/healthz", timeout=10).status_code == 200
