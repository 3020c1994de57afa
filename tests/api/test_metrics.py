"""GET /metrics: not public without the operator's token, bounded labels,
and the request id and JSON log line of every request (api.core.observe)."""

from __future__ import annotations

import re
import uuid

import orjson
import pytest
from flask.testing import FlaskClient

from api import create_app
from api.core.observe import REQUEST_ID_HEADER
from tests.api.contract import ContractClient
from tests.api.helpers import bearer, one_rate_window
from tests.api.live_stream import LiveStream
from tests.api.test_streams import in_background
from tests.support.metrics_text import label_values, samples, total, value
from tests.workers.processes import wait_for

TOKEN = "metrics-" + "s3cret"


def _app(redis_url: str, **config):
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, "ENQUEUE_BOTS": False, **config})
    app.test_client_class = ContractClient
    return app


@pytest.fixture
def operator(redis_url):
    """A test client of an app whose operator set a metrics token."""
    return _app(redis_url, METRICS_TOKEN=TOKEN).test_client()


def _scrape(client) -> dict:
    response = client.get("/metrics", headers=bearer(TOKEN))
    assert response.status_code == 200
    assert response.content_type.startswith("text/plain")
    return samples(response.get_data(as_text=True))


@pytest.mark.parametrize("headers", [{}, bearer(TOKEN)])
def test_metrics_are_not_served_without_the_operator_setting(client, headers):
    """Without KELTIS_METRICS_TOKEN no credential opens /metrics: 401, as the contract's
    metricsToken security says (an outsider's run of it finds what it documents)."""
    refused = client.get("/metrics", headers=headers)
    assert refused.status_code == 401
    assert refused.json["error"]["code"] == "unauthenticated"
    assert refused.headers["WWW-Authenticate"] == "Bearer"


@pytest.mark.parametrize(
    "headers",
    [{}, bearer("wrong"), {"Authorization": f"Basic {TOKEN}"}, bearer(TOKEN + "x"), bearer("")],
)
def test_metrics_refuse_a_missing_or_wrong_token(operator, headers):
    answer = operator.get("/metrics", headers=headers)
    assert answer.status_code == 401
    assert answer.json["error"]["code"] == "unauthenticated"
    assert TOKEN not in answer.get_data(as_text=True)


def test_metrics_count_requests_by_route_and_status(operator):
    before = _scrape(operator)
    for _ in range(3):
        assert operator.get("/healthz").status_code == 200
    assert operator.get("/v1/games/nosuchgame" + uuid.uuid4().hex[:8]).status_code == 404
    after = _scrape(operator)
    key = {"route": "/healthz", "method": "GET", "status": "200"}
    assert (
        value(after, "keltis_http_requests_total", **key)
        - value(before, "keltis_http_requests_total", **key)
        == 3
    )
    lost = {"route": "/v1/games/<game_id>", "method": "GET", "status": "404"}
    assert value(after, "keltis_http_requests_total", **lost) == (
        value(before, "keltis_http_requests_total", **lost) + 1
    )
    count = {"route": "/healthz", "method": "GET"}
    assert value(after, "keltis_http_request_seconds_count", **count) >= 3
    # gauges read from Redis at scrape time
    assert {"keltis-bots-person", "keltis-bots-bulk", "keltis-tournaments"} <= label_values(
        after, "keltis_queue_depth", "queue"
    )
    assert {"waiting", "active", "finished"} <= label_values(after, "keltis_games", "status")


def test_route_labels_stay_bounded_whatever_paths_clients_send(operator):
    """Labels come from the URL rules, never from the raw path: 60 distinct paths add at
    most two route series (a rule with a variable, and the unmatched bucket)."""
    before = label_values(_scrape(operator), "keltis_http_requests_total", "route")
    noise = [uuid.uuid4().hex for _ in range(30)]
    for word in noise:
        operator.get(f"/v1/games/{word}")
        operator.open(f"/{word}/x", method="BREW")  # unknown path and method
    after = _scrape(operator)
    routes = label_values(after, "keltis_http_requests_total", "route")
    assert len(routes - before) <= 2
    assert routes - before <= {"/v1/games/<game_id>", "<unmatched>"}
    assert not any(word in route for route in routes for word in noise)
    methods = label_values(after, "keltis_http_requests_total", "method")
    assert "BREW" not in methods and "OTHER" in methods
    assert total(after, "keltis_http_requests_total", route="<unmatched>") >= 30


def test_every_answer_carries_a_request_id(client):
    fresh = [client.get("/healthz").headers[REQUEST_ID_HEADER] for _ in range(2)]
    assert all(re.fullmatch(r"[0-9a-f]{16}", rid) for rid in fresh)
    assert fresh[0] != fresh[1]
    given = "trace-42.a:b_C"
    assert (
        client.get("/healthz", headers={REQUEST_ID_HEADER: given}).headers[REQUEST_ID_HEADER]
        == given
    )
    error = client.get("/v1/games/nosuch", headers={REQUEST_ID_HEADER: given})
    assert error.status_code == 404 and error.headers[REQUEST_ID_HEADER] == given


@pytest.mark.parametrize("bad", ["x" * 65, "a b", "<script>", "é", "a\\b", "a;b"])
def test_an_unsafe_incoming_request_id_is_replaced(client, bad):
    rid = client.get("/healthz", headers={REQUEST_ID_HEADER: bad}).headers[REQUEST_ID_HEADER]
    assert rid != bad and re.fullmatch(r"[0-9a-f]{16}", rid)


def test_one_json_log_line_per_request_without_secrets(redis_url):
    lines: list[bytes] = []
    client = _app(redis_url, REQUEST_LOG=True, REQUEST_LOG_SINK=lines.append).test_client()
    created = client.post(
        "/v1/games",
        json={"game": "keltis-card", "players": [{"name": "ann"}, {"name": "bob"}]},
    )
    token = created.json["seats"][0]["token"]
    game_id = created.json["id"]
    moves = client.get(
        f"/v1/games/{game_id}/moves?token={token}",
        headers={**bearer(token), REQUEST_ID_HEADER: "rid-1"},
    )
    assert len(lines) == 2 and all(line.endswith(b"\n") for line in lines)
    assert all(line.count(b"\n") == 1 for line in lines)
    first, last = (orjson.loads(line) for line in lines)
    assert first["route"] == "/v1/games" and first["status"] == 201
    assert last["request_id"] == "rid-1" == moves.headers[REQUEST_ID_HEADER]
    assert last["route"] == "/v1/games/<game_id>/moves" and last["method"] == "GET"
    assert last["status"] == moves.status_code and last["ms"] >= 0
    assert set(last) <= {"at", "request_id", "method", "route", "path", "status", "ms", "account"}
    secret = token.rsplit(".", 1)[-1]
    assert all(secret.encode() not in line for line in lines)


def test_the_log_line_names_the_account_of_an_account_key(redis_url):
    lines: list[bytes] = []
    client = _app(redis_url, REQUEST_LOG=True, REQUEST_LOG_SINK=lines.append).test_client()
    name = "log" + uuid.uuid4().hex[:10]
    key = client.post("/v1/accounts", json={"name": name}).json["key"]
    me = client.get("/v1/me", headers=bearer(key))
    assert me.status_code == 200
    line = orjson.loads(lines[-1])
    assert line["account"] == name and line["route"] == "/v1/me"
    assert all(key.encode() not in line and key[3:].encode() not in line for line in lines)


def test_metrics_are_served_while_redis_is_down(tmp_path):
    """The operator sees an outage: the process metrics are served, the Redis gauges are
    left out and `keltis_redis_reachable` says 0."""
    app = create_app(
        {"REDIS_URL": f"unix://{tmp_path}/no-redis.sock", "TESTING": True, "METRICS_TOKEN": TOKEN}
    )
    app.test_client_class = ContractClient
    client = app.test_client()
    assert client.get("/healthz").status_code == 503
    found = _scrape(client)
    assert value(found, "keltis_redis_reachable", server="store") == 0
    assert value(found, "keltis_redis_reachable", server="queue") == 0
    assert label_values(found, "keltis_games", "status") == set()
    assert total(found, "keltis_http_requests_total", route="/healthz", status="503") >= 1


def test_redis_gauges_say_reachable_when_redis_answers(operator):
    found = _scrape(operator)
    assert value(found, "keltis_redis_reachable", server="store") == 1
    assert value(found, "keltis_redis_reachable", server="queue") == 1


def test_an_open_stream_is_gauged_while_open(redis_url):
    app = _app(redis_url, METRICS_TOKEN=TOKEN, STREAM_MAX_S=120.0, STREAM_KEEPALIVE_S=0.3)
    scraper = app.test_client()
    created = _two_person_game(scraper)
    gauged = {"kind": "streams.game_stream"}
    before = value(_scrape(scraper), "keltis_open_streams", **gauged)
    # Open until the test closes it (not for a window the scrapes might miss).
    with LiveStream(app, f"/v1/games/{created['id']}/stream?after=0"):
        assert value(_scrape(scraper), "keltis_open_streams", **gauged) == before + 1
    assert value(_scrape(scraper), "keltis_open_streams", **gauged) == before


def test_an_open_long_poll_is_gauged_while_open(redis_url):
    app = _app(redis_url, METRICS_TOKEN=TOKEN)
    scraper = app.test_client()
    created = _two_person_game(scraper)
    gauged = {"kind": "events"}
    before = value(_scrape(scraper), "keltis_open_long_polls", **gauged)
    url = f"/v1/games/{created['id']}/events?after={created['version']}&wait=60"
    held = in_background(lambda: app.test_client().get(url))
    # Open until a move answers it (not for a window the scrapes might miss).
    wait_for(
        lambda: value(_scrape(scraper), "keltis_open_long_polls", **gauged) == before + 1,
        30,
        "keltis_open_long_polls + 1",
    )
    token = {s["seat"]: s["token"] for s in created["seats"]}[created["to_move"]]
    moves = scraper.get(f"/v1/games/{created['id']}/moves", headers=bearer(token)).json
    scraper.post(f"/v1/games/{created['id']}/moves", json=moves["moves"][0], headers=bearer(token))
    assert held().status_code == 200
    assert value(_scrape(scraper), "keltis_open_long_polls", **gauged) == before


def _two_person_game(client) -> dict:
    players = [{"name": "a"}, {"name": "b"}]
    return client.post("/v1/games", json={"game": "keltis-card", "players": players}).json


class _Connection:
    """A stand-in for the connection socket gunicorn puts in the WSGI environ."""

    def __init__(self, port: int):
        self.port = port

    def getsockname(self):
        return ("127.0.0.1", self.port)


def test_a_metrics_bind_serves_metrics_there_only(redis_url):
    """KELTIS_METRICS_BIND: /metrics only on connections to that address (told by the
    connection's own socket, not by a header), and nothing else there (a 404 the contract
    does not list for /healthz: a plain client)."""
    app = _app(redis_url, METRICS_BIND="127.0.0.1:9464")
    app.test_client_class = FlaskClient
    client = app.test_client()
    there = {"gunicorn.socket": _Connection(9464)}
    elsewhere = {"gunicorn.socket": _Connection(8000)}
    assert client.get("/metrics", environ_base=there).status_code == 200
    refused = client.get("/metrics", environ_base=elsewhere, headers={"Host": "127.0.0.1:9464"})
    assert refused.status_code == 404 and refused.json["error"]["code"] == "not_found"
    assert client.get("/metrics").status_code == 404  # a server that does not say: refused
    assert client.get("/healthz", environ_base=there).status_code == 404
    assert client.get("/healthz", environ_base=elsewhere).status_code == 200


def test_a_metrics_bind_and_a_token_both_apply(redis_url):
    app = _app(redis_url, METRICS_BIND="127.0.0.1:9464", METRICS_TOKEN=TOKEN)
    client = app.test_client()
    there = {"gunicorn.socket": _Connection(9464)}
    assert client.get("/metrics", environ_base=there).status_code == 401
    assert client.get("/metrics", environ_base=there, headers=bearer(TOKEN)).status_code == 200
    assert client.get("/metrics", headers=bearer(TOKEN)).status_code == 404


@pytest.mark.parametrize("setting", ["9464", "127.0.0.1:0", "127.0.0.1:x"])
def test_a_bad_metrics_bind_stops_the_app(redis_url, setting):
    with pytest.raises(ValueError, match=r"KELTIS_METRICS_BIND|HOST:PORT"):
        _app(redis_url, METRICS_BIND=setting)


def test_request_lines_go_to_the_file_the_setting_names(redis_url, tmp_path, monkeypatch):
    """KELTIS_REQUEST_LOG=<path>: whole lines appended by each app (two apps: two processes'
    worth of lines in one file, none cut or merged)."""
    path = tmp_path / "requests.log"
    monkeypatch.setenv("KELTIS_REQUEST_LOG", str(path))
    clients = [_app(redis_url, REQUEST_LOG=True).test_client() for _ in range(2)]
    for number in range(10):
        clients[number % 2].get("/healthz", headers={REQUEST_ID_HEADER: f"file-{number}"})
    lines = [orjson.loads(line) for line in path.read_bytes().splitlines()]
    assert [line["request_id"] for line in lines] == [f"file-{n}" for n in range(10)]


def test_request_log_off_writes_nothing(redis_url, monkeypatch):
    monkeypatch.setenv("KELTIS_REQUEST_LOG", "off")
    app = create_app({"REDIS_URL": redis_url, "RATELIMIT_ENABLED": False})  # not TESTING
    assert app.config["REQUEST_LOG"] is False


def test_refusals_are_counted_by_error_code_and_the_scrape_is_never_refused(redis_url):
    """A client over the rate limit gets 429 rate_limited, counted; the operator's scrape
    from that same address is not limited."""
    app = _app(
        redis_url,
        METRICS_TOKEN=TOKEN,
        RATELIMIT_ENABLED=True,
        RATELIMIT_APPLICATION="3 per minute",
        RATELIMIT_KEY_PREFIX="metrics-test-" + uuid.uuid4().hex,
    )
    one_rate_window(app)
    client = app.test_client()
    address = {"REMOTE_ADDR": "10.9.8.7"}
    before = _scrape(client)
    statuses = [client.get("/v1/games/nosuch", environ_base=address).status_code for _ in range(5)]
    assert statuses.count(429) == 2
    scraped = client.get("/metrics", headers=bearer(TOKEN), environ_base=address)
    assert scraped.status_code == 200
    after = samples(scraped.get_data(as_text=True))
    grown = value(after, "keltis_refusals_total", code="rate_limited") - value(
        before, "keltis_refusals_total", code="rate_limited"
    )
    assert grown == 2
