"""A per-client rate limit: 429 with Retry-After in the error shape, counted in the process
and summed over the web processes in Redis (api.core.ratecount)."""

from __future__ import annotations

import time
import uuid

import pytest
import redis
from limits import parse_many

from api import create_app
from api.core.ratecount import WindowCounts
from api.core.ratelimit import storage_uri
from tests.api.contract import ContractClient
from tests.api.helpers import one_rate_window

JSON = "application/json"


WINDOW_AT = time.time()  # every app of a test counts in the same window (one_rate_window)


def limited_app(redis_url: str, limit: str, **config):
    prefix = f"test-ratelimit-{uuid.uuid4().hex}"
    app = create_app(
        {
            "REDIS_URL": redis_url,
            "TESTING": True,
            "RATELIMIT_ENABLED": True,
            "RATELIMIT_APPLICATION": limit,
            "RATELIMIT_KEY_PREFIX": prefix,
            **config,
        }
    )
    app.test_client_class = ContractClient
    one_rate_window(app, WINDOW_AT)
    return app, prefix


def test_a_client_over_its_limit_gets_429_with_retry_after_in_the_error_shape(redis_url):
    app, _ = limited_app(redis_url, "3 per minute")
    client = app.test_client()
    answers = [client.get("/v1/games") for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 200]
    limited = client.post("/v1/games", json={"game": "keltis-card", "players": []})
    assert limited.status_code == 429
    assert set(limited.get_json()["error"]) == {"code", "message", "rule"}
    assert limited.get_json()["error"]["code"] == "rate_limited"
    assert 0 < int(limited.headers["Retry-After"]) <= 60


def test_the_limit_is_per_client_and_spares_the_health_check(redis_url):
    app, _ = limited_app(redis_url, "2 per minute")
    client = app.test_client()
    for _ in range(2):
        assert client.get("/v1/bots").status_code == 200
    assert client.get("/v1/bots").status_code == 429
    assert client.get("/healthz").status_code == 200
    other = client.get("/v1/bots", environ_base={"REMOTE_ADDR": "203.0.113.9"})
    assert other.status_code == 200


def test_the_counters_live_in_the_services_redis(redis_url):
    app, prefix = limited_app(redis_url, "5 per minute")
    for _ in range(3):
        app.test_client().get("/v1/bots")
    server = redis.Redis.from_url(redis_url)

    def synced() -> list:  # the background sync adds the counts every 50 ms, maybe in two
        found = server.keys(f"{prefix}*")
        return found if found and int(server.get(found[0]) or 0) >= 3 else []

    deadline = time.monotonic() + 10
    while not synced() and time.monotonic() < deadline:
        time.sleep(0.02)
    (counter,) = server.keys(f"{prefix}*")
    assert int(server.get(counter)) == 3
    assert 0 < server.ttl(counter) <= 61


def test_processes_share_one_limit_through_redis(redis_url):
    """Two web processes (two apps) of one service: once the counts are synced, the second
    refuses a client the first has used up."""
    first, prefix = limited_app(redis_url, "4 per minute")
    second, _ = limited_app(redis_url, "4 per minute", RATELIMIT_KEY_PREFIX=prefix)
    for _ in range(3):
        assert first.test_client().get("/v1/bots").status_code == 200
    first.extensions["keltis_rate_limit"].counts.sync()
    client = second.test_client()
    assert client.get("/v1/bots").status_code == 200  # 4 of 4
    second.extensions["keltis_rate_limit"].counts.sync()
    assert client.get("/v1/bots").status_code == 429
    # the first process learns the total with its next sync of this client's counts: it
    # lets at most that one request through beyond the limit
    first.extensions["keltis_rate_limit"].counts.sync()
    first.test_client().get("/v1/bots")
    first.extensions["keltis_rate_limit"].counts.sync()
    assert first.test_client().get("/v1/bots").status_code == 429
    server = redis.Redis.from_url(redis_url)
    (counter,) = server.keys(f"{prefix}*")
    assert int(server.get(counter)) <= 5


def test_a_sync_adds_each_count_once(redis_url):
    app, prefix = limited_app(redis_url, "100 per minute")
    counts = app.extensions["keltis_rate_limit"].counts
    for _ in range(7):
        app.test_client().get("/v1/bots")
    counts.sync()
    counts.sync()  # nothing new: adds nothing
    server = redis.Redis.from_url(redis_url)
    (counter,) = server.keys(f"{prefix}*")
    assert int(server.get(counter)) == 7


def test_the_limit_is_off_in_test_apps_unless_asked_and_off_by_environment(redis_url, monkeypatch):
    quiet = create_app({"REDIS_URL": redis_url, "TESTING": True})
    client = quiet.test_client()
    assert all(client.get("/v1/bots").status_code == 200 for _ in range(30))
    monkeypatch.setenv("KELTIS_RATE_LIMIT", "off")
    assert create_app({"REDIS_URL": redis_url}).config["RATELIMIT_ENABLED"] is False
    monkeypatch.setenv("KELTIS_RATE_LIMIT", "7 per second")
    app = create_app({"REDIS_URL": redis_url})
    assert app.config["RATELIMIT_ENABLED"] is True
    assert app.config["RATELIMIT_APPLICATION"] == "7 per second"


@pytest.mark.parametrize(
    ("url", "uri"),
    [
        ("redis://10.0.0.1:6379/2", "redis://10.0.0.1:6379/2"),
        ("unix:///tmp/redis.sock", "redis+unix:///tmp/redis.sock"),
        ("redis+cluster://10.0.0.1:7000", "redis+cluster://10.0.0.1:7000"),
    ],
)
def test_the_limiter_storage_is_the_service_redis(url, uri):
    assert storage_uri(url) == uri


def test_a_redis_outage_under_the_limiter_is_a_clean_503(redis_server_factory):
    server = redis_server_factory()
    app, _ = limited_app(server.url, "100 per minute")
    client = app.test_client()
    assert client.get("/v1/bots").status_code == 200
    server.kill()
    down = client.get("/v1/games")
    assert down.status_code == 503
    assert down.get_json()["error"]["code"] == "storage_unavailable"


def _new_game(client) -> tuple[str, dict, int]:
    created = client.post(
        "/v1/games", json={"game": "keltis-card", "players": [{"name": "a"}, {"name": "b"}]}
    ).get_json()
    seat = created["to_move"]
    token = next(s["token"] for s in created["seats"] if s["seat"] == seat)
    return created["id"], {"Authorization": f"Bearer {token}"}, created["version"]


def test_a_move_over_the_limit_is_refused_before_it_is_applied(redis_url):
    app, _ = limited_app(redis_url, "4 per minute")
    store = app.extensions["keltis"].client
    assert app.extensions["keltis_rate_limit"].counts.client is store
    client = app.test_client()
    game_id, auth, version = _new_game(client)  # 1
    moves = client.get(f"/v1/games/{game_id}/moves", headers=auth)  # 2
    assert moves.status_code == 200
    move = moves.get_json()["moves"][0]
    assert (
        client.post(f"/v1/games/{game_id}/moves", json=move, headers=auth).status_code == 200
    )  # 3
    fourth = client.get(f"/v1/games/{game_id}/moves", headers=auth)
    assert fourth.status_code == 200
    limited = client.post(f"/v1/games/{game_id}/moves", json=move, headers=auth)
    assert limited.status_code == 429
    assert limited.get_json()["error"]["code"] == "rate_limited"
    assert 0 < int(limited.headers["Retry-After"]) <= 60
    assert client.get(f"/v1/games/{game_id}/moves", headers=auth).status_code == 429
    assert redis.Redis.from_url(redis_url).llen(f"keltis:game:{{{game_id}}}:log") == version + 1


def test_a_move_refused_before_its_games_read_is_still_counted(redis_url):
    app, _ = limited_app(redis_url, "3 per minute")
    client = app.test_client()
    game_id, auth, _ = _new_game(client)  # 1
    for _ in range(2):  # 2, 3: a body that is not JSON fails before the game is read
        bad = client.post(f"/v1/games/{game_id}/moves", data=b"{", headers=auth, content_type=JSON)
        assert bad.status_code in (400, 422)
    limited = client.post(f"/v1/games/{game_id}/moves", data=b"{", headers=auth, content_type=JSON)
    assert limited.status_code == 429
    assert int(limited.headers["Retry-After"]) > 0


def test_a_new_window_starts_from_zero(redis_url):
    now = [1_000_020.0]
    counts = WindowCounts(
        redis.Redis.from_url(redis_url),
        parse_many("2 per minute"),
        f"test-ratelimit-{uuid.uuid4().hex}",
        sync_s=3600,
        clock=lambda: now[0],
    )
    assert counts.hit("a") is None and counts.hit("a") is None
    assert counts.hit("a") is not None
    counts.sync()
    assert counts.hit("a") is not None
    now[0] += 60
    assert counts.hit("a") is None
