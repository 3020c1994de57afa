"""Health, bots, listing, the contract and its docs page; Redis down gives 503."""

from __future__ import annotations

import re
import time

import pytest
import yaml
from openapi_core.validation.response.exceptions import DataValidationError

from api import create_app
from tests.api.contract import ContractClient
from tests.api.helpers import bearer, create, start_humans


def test_healthz_checks_redis(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json == {"status": "ok"}


@pytest.fixture
def down_client(toy, tmp_path):
    app = create_app({"REDIS_URL": f"unix://{tmp_path}/no-redis.sock", "TESTING": True})
    app.test_client_class = ContractClient
    return app.test_client()


def test_redis_unreachable_is_503_never_500(down_client, toy):
    health = down_client.get("/healthz")
    assert health.status_code == 503
    assert health.json["error"]["code"] == "storage_unavailable"
    game = down_client.get("/v1/games/AAAAAAAAAAAAAAAAAAAAAA")
    assert game.status_code == 503
    created = down_client.post(
        "/v1/games", json={"game": toy, "players": [{"name": "a"}, {"name": "b"}]}
    )
    assert created.status_code == 503
    assert created.json["error"]["rule"] is None


def test_bots_are_listed_per_game(client, toy):
    games = {g["game"]: g["bots"] for g in client.get("/v1/bots").json["games"]}
    assert games[toy] == ["first", "random"]


def test_games_are_listed_newest_first_with_filters_and_pages(client, toy):
    oldest = create(client, toy, [{"name": "a"}, {"open": True}])["id"]
    time.sleep(0.003)
    waiting = create(client, toy, [{"name": "a"}, {"open": True}])["id"]
    time.sleep(0.003)
    active, _ = start_humans(client, toy, ["a", "b"])
    listed = client.get(f"/v1/games?game={toy}&limit=2").json
    assert [g["id"] for g in listed["games"]] == [active, waiting]
    assert isinstance(listed["next_cursor"], str)
    following = client.get(f"/v1/games?game={toy}&limit=1&cursor={listed['next_cursor']}").json
    assert following["games"][0]["id"] == oldest
    only_waiting = client.get(f"/v1/games?game={toy}&status=waiting&limit=2").json
    assert [g["id"] for g in only_waiting["games"]] == [waiting, oldest]
    only_active = client.get(f"/v1/games?game={toy}&status=active&limit=1").json
    assert only_active["games"][0]["id"] == active
    assert client.get("/v1/games?status=bogus").status_code == 400


def test_list_index_is_rebuildable_from_the_logs(app, client, toy, redis_client):
    from api.core.extensions import EXTENSION
    from store import keys

    gid, tokens = start_humans(client, toy, ["a", "b"])
    client.post(f"/v1/games/{gid}/moves", json={"action": "pass"}, headers=bearer(tokens[0]))
    redis_client.hdel(keys.game_summaries(), gid)
    assert gid not in {g["id"] for g in client.get("/v1/games?limit=100").json["games"]}
    assert app.extensions[EXTENSION].rebuild_index() >= 1
    listed = {g["id"]: g for g in client.get("/v1/games?limit=100").json["games"]}
    assert listed[gid]["to_move"] == 1


def test_openapi_yaml_and_docs_page_are_served(client):
    spec = client.get("/openapi.yaml")
    assert spec.status_code == 200
    document = yaml.safe_load(spec.data)
    assert document["openapi"] == "3.0.3"
    page = client.get("/docs/plain")
    assert page.status_code == 200
    html = page.data.decode()
    for path in document["paths"]:
        assert path in html
    body = html.split("<body>", 1)[1]
    assert "<script" not in html
    # Nothing from elsewhere: no URL but the loopback's (words like `http_status` are fine).
    urls = re.findall(r"https?://[^\s\"'<>&]+", body)
    assert all(url.startswith("http://127.0.0.1") for url in urls), urls
    links = re.findall(r"(?:src|href)=[\"']([^\"']*)", body)
    assert all(link.startswith(("/", "#")) and not link.startswith("//") for link in links)


def test_docs_page_is_swagger_ui_served_from_the_pinned_package(client):
    page = client.get("/docs")
    assert page.status_code == 200
    html = page.data.decode()
    assert "/docs/static/swagger-ui-bundle.js" in html and "/openapi.yaml" in html
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "default-src 'none'" in page.headers["Content-Security-Policy"]
    bundle = client.get("/docs/static/swagger-ui-bundle.js")
    assert bundle.status_code == 200 and b"SwaggerUIBundle" in bundle.data
    assert client.get("/docs/static/swagger-ui.css").mimetype == "text/css"
    assert client.get("/docs/static/index.html").status_code == 404


def test_unknown_paths_and_methods_use_the_error_shape(client):
    missing = client.get("/v2/nothing")
    assert missing.status_code == 404
    assert missing.json["error"]["code"] == "not_found"
    wrong = client.delete("/v1/games")
    assert wrong.status_code == 405
    assert wrong.json["error"]["code"] == "method_not_allowed"


def test_the_contract_check_rejects_a_response_that_breaks_the_spec(client, monkeypatch):
    """The contract check on every response is real: a body outside the spec fails."""
    from api.core import schemas

    monkeypatch.setattr(schemas.HealthSchema, "dump", lambda self, data: {"status": 1})
    with pytest.raises(DataValidationError):
        client.get("/healthz")
